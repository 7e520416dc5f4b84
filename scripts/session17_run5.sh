#!/bin/bash
# Session 17, device run 5: packed padding slots loaded from rows past SEQ_Q (zero-filled by TMA, no memory read) instead
# of duplicate rows; the packed variants' float64 tests again; then the shapes where runs 1-3 read
# 8-row slots slower than 16-row ones (groups of 4), with more rounds and the API's call timed twice (twin: noise).
#   bash scripts/session17_run5.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 200 python3 scripts/precompile.py --match pk8 --jobs 16 2>&1 | tail -1
timeout 200 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider -x \
  -k "(pk8 and (every_shipped_variant_matches or launched_binary)) or queries_of_grouped" 2>&1 | tail -2
timeout 300 python3 scripts/packed_queries.py --out $OUT --rounds 15 --slots16 --twin --no-peers --shapes \
  "4,32,8,4,8192,128,c;1,32,8,4,8192,64,c;64,32,8,4,512,128,c;1,32,8,4,8192,128,c;1,16,4,4,8192,256,c;1,64,8,4,16384,128,c;2,12,2,12,8192,128,c;8,64,8,8,4096,128,c" \
  2>&1 | grep -E "^\(|Error"
