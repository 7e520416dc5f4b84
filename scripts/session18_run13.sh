#!/bin/bash
# Session 18, device run 13 (review): after the review's refactors (one _consume_tile call and one slot-buffer formula in
# sm90_fwd, packed_variant restated; SASS of all 494 variants and the rule unchanged offline) and the edge-mask test
# folded into _check_packed_grid: the packed GPU tests and the API's packed-query tests.
#   bash scripts/session18_run13.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 150 python3 scripts/precompile.py --match pk8 --jobs 16 2>&1 | tail -1
timeout 400 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider \
  -k "two_consumer_packed or (pk8 and (every_shipped or launched_binary)) or queries_of_grouped" 2>&1 | tail -3
