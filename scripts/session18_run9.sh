#!/bin/bash
# Session 18, device run 9: the two-consumer packed builds under other causal offsets (SDPA's top-left alignment, fewer
# keys than queries: rows that see no key), D=64 / 128 / 256, against float64; then the API's packed-query tests again.
#   bash scripts/session18_run9.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 150 python3 scripts/precompile.py --match pppk8 --jobs 16 2>&1 | tail -1
timeout 300 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider \
  -k "two_consumer_packed or queries_of_grouped" 2>&1 | tail -3
