#!/bin/bash
# Session 18, device run 7 (final kernel and rule): the two-consumer packed builds at every head dim (D=32 / 64 new in
# the rule: up to 32 queries). GPU tests (per variant, five layouts, launched == audited, the API's packed-query tests
# and decode), memcheck / synccheck (the child has two-consumer packed cases), and the timing table for the README.
#   bash scripts/session18_run7.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 150 python3 scripts/precompile.py --match pk8 --jobs 16 2>&1 | tail -1
timeout 300 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider \
  -k "two_consumer_packed or (pppk8 and (every_shipped or launched_binary)) or queries_of_grouped or one_query or packed_decode" 2>&1 | tail -3
SAN_LIMIT=170 bash scripts/sanitize_child.sh
timeout 240 python3 scripts/packed_queries.py --out $OUT/final --rounds 9 --nopp --shapes \
  "16,32,8,64,4096,128,c;32,32,8,33,2048,128,c;16,16,4,48,4096,256,c;32,32,8,17,4096,128,c;64,28,4,12,2048,128,c;48,32,8,20,2048,96;16,32,8,32,4096,64,c;64,28,4,12,2048,64,c;4,32,8,4,8192,128,c;16,64,8,8,4096,128,c" \
  2>&1 | grep -E "^\(|Error"
