#!/bin/bash
# Session 17, device run 8: 17-32 queries per sequence packed too (2 heads a tile, four 8-row slots each;
# variants.PACK_MAX_QUERIES = 32): the API's packed-query tests, then 17-32-query shapes against the unpacked call and
# the SDPA backends.
#   bash scripts/session17_run8.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 200 python3 scripts/precompile.py --match pk8 --jobs 16 2>&1 | tail -1
timeout 200 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider -x -k "queries_of_grouped" 2>&1 | tail -2
timeout 240 python3 scripts/packed_queries.py --out $OUT --rounds 9 --twin --shapes \
  "1,32,8,24,8192,128,c;4,32,8,32,8192,128,c;16,32,8,32,4096,128,c;32,32,8,17,4096,128,c;1,16,8,20,16384,256,c;8,32,8,24,2048,64,c;2,28,4,32,8192,128,c;1,64,8,32,32768,128,c;64,32,8,32,1024,128,c" \
  2>&1 | grep -E "^\(|Error"
