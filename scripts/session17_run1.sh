#!/bin/bash
# Session 17, device run 1: packed grouped-query tiles in 8-row slots (variants.pack_heads: up to 8 heads of up to 8
# queries a tile, groups of any size with a divisor of 2+): the 168 packed variants (float64 on groups of 7, a 512-tile
# grid of groups of 7, launched == audited), the API's packed-query tests, timing against the unpacked call, 16-row
# slots (session 16's layout) and the SDPA backends, then memcheck and synccheck.
#   bash scripts/session17_run1.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 200 python3 scripts/precompile.py --match sm90_ws --jobs 16 2>&1 | tail -1
timeout 240 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider -x \
  -k "(pk8 and (every_shipped or launched_binary)) or queries_of_grouped or one_query" 2>&1 | tail -4
timeout 200 python3 scripts/packed_queries.py --out $OUT --rounds 7 --slots16 2>&1 | grep -E "^\(|Error"
SAN_LIMIT=120 bash scripts/sanitize_child.sh
