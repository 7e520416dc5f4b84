#!/bin/bash
# Session 17, device run 9: counters (5 classes x 5 repeats through the API) at two packed shapes of the 8-row-slot
# kernel: groups of 7, 5 queries (7 heads a tile and a padding slot, 16 parts) and groups of 4, 24 queries (2 heads a
# tile, three slots each and a padding slot, 2 parts); a dudect test at the first.
#   bash scripts/session17_run9.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 100 python3 scripts/precompile.py --match pk8 --jobs 16 2>&1 | tail -1
COUNTERS_LIMIT=150 bash scripts/counters_batch.sh "1,28,5,128,8192,4" "4,32,24,128,4096,8" 2>&1
timeout 150 python3 -m dhpfa leak --shape 1,28,5,128,8192,4 --samples 2000 --out $OUT/leak 2>&1 | tail -4
