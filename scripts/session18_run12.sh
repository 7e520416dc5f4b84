#!/bin/bash
# Session 18, device run 12: the rule after run 11 (past 32 queries the two-consumer packed build needs one wave of
# tiles or an unpacked grid beyond twice the SMs): run 11's shapes and run 8's random ones against the unpacked call,
# and the API's packed-query GPU tests.
#   bash scripts/session18_run12.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 150 python3 scripts/precompile.py --match pk8 --jobs 16 2>&1 | tail -1
timeout 240 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider -k "queries_of_grouped" 2>&1 | tail -2
timeout 400 python3 scripts/packed_queries.py --out $OUT/rule --rounds 9 --no-peers --nopp --shapes \
  "48,5,1,43,700,128,c;48,5,1,43,4096,128,c;48,5,1,43,700,128;72,4,1,43,700,128,c;66,4,1,50,1000,128,c;8,32,8,48,4096,128,c;24,16,1,23,1024,96;96,32,8,32,2048,256;48,10,2,14,8192,96,c;32,40,8,47,2048,96,c;32,16,2,36,2048,128;24,24,8,60,8192,192,c;16,128,8,57,3000,128,c;8,24,4,33,700,96;64,16,2,46,3000,256" \
  2>&1 | grep -E "^\(|Error"
