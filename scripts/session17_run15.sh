#!/bin/bash
# Session 17, device run 15: packed tiles of a group spread evenly over as few tiles as fit (variants.pack_blocks,
# sm90_fwd._pack_block: the last tile of a group may hold fewer heads), so groups of 5 / 7 with 9-16 queries and odd
# groups with 17-32 pack too: the 168 packed variants (float64 on 12 queries of groups of 5, the 512-tile grid of groups
# of 7, launched == audited), the API's packed-query and decode tests; memcheck / synccheck; timing.
#   bash scripts/session17_run15.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 150 python3 scripts/precompile.py --match sm90_ws --jobs 16 2>&1 | tail -1
timeout 240 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider -x \
  -k "(pk8 and (every_shipped or launched_binary)) or queries_of_grouped or one_query or packed_decode" 2>&1 | tail -2
SAN_LIMIT=120 bash scripts/sanitize_child.sh
timeout 200 python3 scripts/packed_queries.py --out $OUT --rounds 9 --twin --shapes \
  "1,28,4,12,8192,128,c;8,28,4,16,4096,128,c;1,40,8,12,16384,128,c;4,40,8,9,8192,128,c;2,24,8,24,8192,128,c;1,32,8,4,8192,128,c;4,32,8,4,8192,128,c;16,64,8,8,4096,128,c;1,40,8,3,16384,128,c" \
  2>&1 | grep -E "^\(|Error"
