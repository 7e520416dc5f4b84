#!/bin/bash
# Session 16, device run 14: packed grouped-query tiles without a split (split_kv = 1: one program per packed tile, for
# packed grids the split rules leave unsplit; 24 new variants): each against float64, on a grid of 512 packed tiles,
# launched == audited; the API's packed-query tests (now with two unsplit cases); timing against the unpacked calls.
#   bash scripts/session16_run14.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 200 python3 scripts/precompile.py --match sm90_ws --jobs 16 2>&1 | tail -1
timeout 200 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider \
  -k "(kv1ovpk16 and (every_shipped or launched_binary)) or queries_of_grouped" 2>&1 | tail -3
timeout 200 python3 scripts/packed_queries.py --out $OUT 2>&1 | grep -E "^\(|Error"
