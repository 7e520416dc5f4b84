#!/bin/bash
# Session 18, device run 4 (the shipped rule): packed tiles of two consumers (variants.SM90_PACKED_PP) where 2 x their
# tiles exceed the SMs, a group needs 2+ 64-row tiles and D >= 96; the 8-warp 128-row builds of runs 1-2 removed.
# GPU tests (the pp variants per variant and on five layouts, the API's packed-query tests and decode), memcheck /
# synccheck (the child has a pp case), timing of the API against unpacked and SDPA, counters and dudect at a pp shape.
#   bash scripts/session18_run4.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 150 python3 scripts/precompile.py --match pk8 --jobs 16 2>&1 | tail -1
timeout 280 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider \
  -k "two_consumer_packed or (pppk8 and (every_shipped or launched_binary)) or queries_of_grouped or one_query or packed_decode" 2>&1 | tail -3
SAN_LIMIT=150 bash scripts/sanitize_child.sh
timeout 240 python3 scripts/packed_queries.py --out $OUT/final --rounds 9 --twin --shapes \
  "16,32,8,64,4096,128,c;32,32,8,33,2048,128,c;8,32,8,48,4096,128,c;6,32,8,40,4096,128;16,16,4,48,4096,256,c;16,32,8,48,4096,96,c;16,32,8,32,4096,128,c;32,32,8,17,4096,128,c;16,32,8,24,4096,256,c;64,28,4,12,2048,128,c;1,32,8,48,8192,128,c;16,64,8,8,4096,128,c" \
  2>&1 | grep -E "^\(|Error"
COUNTERS_LIMIT=150 bash scripts/counters_batch.sh "24,16,40,128,1000,4" 2>&1
timeout 150 python3 -m dhpfa leak --shape 24,16,40,128,1000,4 --samples 2000 --out $OUT/leak 2>&1 | tail -4
