#!/bin/bash
# Session 17, device run 16 (final kernel): counters (5 classes x 5 repeats through the API) at a packed shape with
# unequal tiles (groups of 5 as 3 + 2 heads, 12 queries, 4 parts) and at run 9's groups of 7; dudect at the first.
#   bash scripts/session17_run16.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 100 python3 scripts/precompile.py --match pk8 --jobs 16 2>&1 | tail -1
COUNTERS_LIMIT=150 bash scripts/counters_batch.sh "1,10,12,128,3000,2" "1,28,5,128,8192,4" 2>&1
timeout 150 python3 -m dhpfa leak --shape 1,10,12,128,3000,2 --samples 2000 --out $OUT/leak 2>&1 | tail -4
