#!/bin/bash
# Session 17, device run 12: packed builds at D=96 / 128 with 4 parts merge through the workspace (as 8+ parts do):
# their float64, launched == audited and packed-query tests, then the shapes that run them (and run 11's part counts
# at (4,64,8,4,8192,128), where 2 parts beat the 4-part rule).
#   bash scripts/session17_run12.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 150 python3 scripts/precompile.py --match pk8 --jobs 16 2>&1 | tail -1
timeout 200 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider -x \
  -k "(kv4ovpk8 and (every_shipped or launched_binary)) or queries_of_grouped" 2>&1 | tail -2
timeout 200 python3 scripts/packed_queries.py --out $OUT --rounds 11 --no-peers --twin --parts 2,4 --shapes \
  "4,32,8,4,8192,128,c;4,64,8,4,8192,128,c;1,64,8,32,32768,128,c;4,32,8,4,8192,96,c;2,32,8,16,8192,128,c" \
  2>&1 | grep -E "^\(|Error"
