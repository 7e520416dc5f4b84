#!/bin/bash
# Session 16, device run 10: grouped-query packing for 2-16 queries per sequence (sm90_fwd PACK; 144 new variants).
# Precompile, then each packed variant against float64 (every head), on a grid of 512 packed tiles with 10 queued
# calls, launched == audited; the API's packed calls at every head dim (float64 on every head, bitwise over repeats
# and graph replays); then timing against the unpacked calls and SDPA (packed_queries.py).
#   bash scripts/session16_run10.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 200 python3 scripts/precompile.py --match sm90_ws --jobs 16 2>&1 | tail -2
timeout 200 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider -x \
  -k "(pk16 and (every_shipped or launched_binary)) or queries_of_grouped_heads" 2>&1 | tail -6
timeout 150 python3 scripts/packed_queries.py --out $OUT 2>&1 | grep -E "^\(|Error"
