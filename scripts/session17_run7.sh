#!/bin/bash
# Session 17, device run 7: packed slot arithmetic by shifts and masks (_pack_shift; no integer-division calls, which
# ncu in run 6 tied to 12% more SM cycles at (4,32,8,4,8192,128)): the packed variants (float64 on groups of 7, the
# 512-tile grid, launched == audited) and the API's packed-query tests; then every packed_queries.py shape against the
# unpacked call, 16-row slots (session 16's layout), the API's call timed twice (twin) and the SDPA backends.
#   bash scripts/session17_run7.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 200 python3 scripts/precompile.py --match pk8 --jobs 16 2>&1 | tail -1
timeout 240 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider -x \
  -k "(pk8 and (every_shipped or launched_binary)) or queries_of_grouped or one_query" 2>&1 | tail -2
timeout 280 python3 scripts/packed_queries.py --out $OUT --rounds 9 --slots16 --twin 2>&1 | grep -E "^\(|Error"
