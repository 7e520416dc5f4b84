#!/bin/bash
# Session 18, device run 3: packed tiles on the persistent two-consumer builds (variants.SM90_PACKED_PP: 128-row tiles,
# 64 rows = 8 slots a consumer, ping-pong turns), after run 1-2 found the 8-warp one-partition 128-row build's steps
# about 1.8x a 64-row step. Correctness of the new build (float64 on every head, five layouts; launched == audited;
# the 512-tile grid), then timing against the API (8-warp builds at 33-64 queries, 64-row at up to 32) and unpacked.
#   bash scripts/session18_run3.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 150 python3 scripts/precompile.py --match pk8 --jobs 16 2>&1 | tail -1
timeout 200 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider \
  -k "two_consumer_packed or (pppk8 and (every_shipped or launched_binary))" 2>&1 | tail -4
timeout 300 python3 scripts/packed_queries.py --out $OUT/pp --rounds 9 --no-peers --pp --shapes \
  "1,32,8,48,8192,128,c;8,32,8,48,4096,128,c;16,32,8,64,4096,128,c;4,28,4,40,8192,128,c;32,32,8,33,2048,128,c;2,32,8,64,16384,64,c;16,32,8,64,4096,64,c;32,32,8,40,2048,64;4,16,4,48,8192,256,c;16,16,4,48,4096,256,c;4,64,8,64,8192,128,c;6,32,8,40,4096,128;12,32,8,64,4096,128,c;16,32,8,32,4096,128,c;32,32,8,17,4096,128,c;8,32,8,16,4096,128,c;4,32,8,4,8192,128,c;16,64,8,8,4096,128,c;32,32,8,4,8192,64,c;64,32,8,4,512,128,c;16,16,4,8,4096,256,c" \
  2>&1 | grep -E "^\(|Error"
