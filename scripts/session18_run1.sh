#!/bin/bash
# Session 18, device run 1: packed tiles of 128 rows (two warpgroups in the one consumer partition, 16 slots of 8 rows)
# for 33-64 queries of grouped heads: the 168 new variants (float64 on 40 queries of groups of 5 in tiles of 2, 2, 1
# heads; the 512-tile grid of groups of 7 with 36 queries, 10 queued calls; launched == audited), the API's
# packed-query tests (new cases of 33-64 queries) and decode; memcheck / synccheck; timing against the unpacked call
# and SDPA, and 128-row tiles forced at 4-32 queries (r128) against the shipped 64-row ones.
#   bash scripts/session18_run1.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 150 python3 scripts/precompile.py --match pk8 --jobs 16 2>&1 | tail -1
timeout 300 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider -x \
  -k "(w8s2kv and (every_shipped or launched_binary)) or queries_of_grouped or one_query or packed_decode" 2>&1 | tail -3
SAN_LIMIT=150 bash scripts/sanitize_child.sh
timeout 240 python3 scripts/packed_queries.py --out $OUT/wide --rounds 9 --twin --shapes \
  "1,32,8,48,8192,128,c;8,32,8,48,4096,128,c;16,32,8,64,4096,128,c;4,28,4,40,8192,128,c;32,32,8,33,2048,128,c;2,32,8,64,16384,64,c;4,16,4,48,8192,256,c;8,40,8,56,4096,128,c;1,32,8,64,8192,128" \
  2>&1 | grep -E "^\(|Error"
timeout 150 python3 scripts/packed_queries.py --out $OUT/r128 --rounds 9 --no-peers --rows 128 --shapes \
  "8,32,8,16,4096,128,c;4,32,8,24,8192,128,c;16,32,8,32,4096,128,c;1,64,8,12,32768,128,c;4,32,8,4,8192,128,c;32,32,8,17,4096,128,c" \
  2>&1 | grep -E "^\(|Error"
