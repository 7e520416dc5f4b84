#!/bin/bash
# Session 20, device run 2: the varlen kernel's tiles per head dim (scripts/varlen_sweep.py), and after the call plan
# (a repeated call skips the checks and launches through dispatch's fast launcher) its GPU tests and bench again.
#   bash scripts/session20_run2.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 120 python3 scripts/precompile.py --match varlen --jobs 16 2>&1 | tail -1
timeout 150 python3 -m pytest -q -m gpu tests/test_varlen.py -p no:cacheprovider 2>&1 | tail -2
timeout 300 python3 scripts/varlen_sweep.py --out "$OUT/sweep" --rounds 7 2>&1 | tail -14
timeout 200 python3 scripts/varlen_bench.py --out "$OUT/varlen" --rounds 7 --leak-samples 0 2>&1 | tail -13
