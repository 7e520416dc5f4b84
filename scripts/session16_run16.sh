#!/bin/bash
# Session 16, device run 16: part counts for packed grids (the split rules were taken over from other few-program
# grids, not tuned): the packed call forced to 1-64 parts beside the API's choice, graph replay.
#   bash scripts/session16_run16.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 200 python3 scripts/precompile.py --match pk16 --jobs 16 2>&1 | tail -1
timeout 350 python3 scripts/packed_queries.py --out $OUT --no-peers --parts 1,2,4,8,16,32,64 --rounds 9 --shapes \
  "1,32,8,4,8192,128,c;1,64,8,8,32768,128,c;4,32,8,4,8192,128,c;8,32,8,16,4096,128,c;16,32,8,4,4096,128,c;1,32,8,4,2048,128,c;2,32,8,4,16384,64,c;1,16,4,4,8192,256,c;4,32,8,8,1000,128,c" \
  2>&1 | grep -E "^\(|Error"
