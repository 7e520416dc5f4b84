#!/bin/bash
# Session 17, device run 11: packed part counts on the grids that 8-row slots made smaller (groups of 8 with up to 8
# queries: 8 heads a tile; groups of 7 and 5): the API's call against the packed call forced to 4-32 parts.
#   bash scripts/session17_run11.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 150 python3 scripts/precompile.py --match pk8 --jobs 16 2>&1 | tail -1
timeout 300 python3 scripts/packed_queries.py --out $OUT --rounds 7 --no-peers --parts 2,4,8,16,32 --shapes \
  "1,64,8,4,16384,128,c;1,64,8,8,32768,128,c;2,64,8,8,8192,128,c;4,64,8,4,8192,128,c;1,28,4,4,8192,128,c;1,28,4,8,32768,128,c;2,40,8,3,16384,128,c;1,32,8,8,8192,64,c;1,16,8,4,16384,256,c" \
  2>&1 | grep -E "^\(|Error"
