#!/bin/bash
# Session 16, device run 12: packed grouped-query calls: memcheck and synccheck (the sanitizer child now has packed
# cases at every head dim), counters and a dudect test at (1,32,4,128,8192,8) (4 queries, 32 heads over 8).
#   bash scripts/session16_run12.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 100 python3 scripts/precompile.py --match sm90_ws --jobs 16 2>&1 | tail -1
SAN_LIMIT=150 bash scripts/sanitize_child.sh
COUNTERS_LIMIT=150 bash scripts/counters_batch.sh "1,32,4,128,8192,8" 2>&1 | head -5
timeout 120 python3 -m dhpfa leak --shape 1,32,4,128,8192,8 --samples 2000 --out $OUT/leak 2>&1 | tail -3
