#!/bin/bash
# Session 28 run 4: the whole bench (bf16) after the Triton 64-row TMA tiles' two changes of session 28
# (the masked loop under a branch on its block count; two stages for the masked blocks); precompiles the binaries first.
#   bash scripts/session28_run4.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,power.limit --format=csv,noheader
t0=$(date +%s)
timeout 120 python3 scripts/precompile.py --jobs 16 --match bf16 2>&1 | tail -1
timeout 460 python3 -m dhpfa bench --dtypes bf16 --out $OUT/bench > $OUT/bench.log 2>&1
echo "bench rc $? $(( $(date +%s) - t0 )) s"
grep -v "^\[" $OUT/bench.log | tail -90
