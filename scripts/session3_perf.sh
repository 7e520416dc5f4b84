#!/bin/bash
# Session 3, device run 2: the benchmark grid with the new defaults, host time per call, the autotuner.
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv,noheader
echo "== host overhead"
timeout 60 python3 scripts/host_overhead.py --out $OUT 2>&1 | tail -10
echo "== bench"
timeout ${BENCH_LIMIT:-280} python3 -m dhpfa bench --dtypes bf16 --out $OUT/bench 2>&1 | tail -60
echo "== tune"
DHPFA_CACHE_DIR=$OUT timeout ${TUNE_LIMIT:-230} python3 -m dhpfa tune --out $OUT 2>&1 | tail -40
