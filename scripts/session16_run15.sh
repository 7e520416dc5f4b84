#!/bin/bash
# Session 16, device run 15: memcheck and synccheck with packed tiles with and without a split in the sanitizer child,
# and counters at a packed grid without a split, (32,32,4,128,8192,8).
#   bash scripts/session16_run15.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 200 python3 scripts/precompile.py --match sm90_ws --jobs 16 2>&1 | tail -1
SAN_LIMIT=150 bash scripts/sanitize_child.sh
COUNTERS_LIMIT=150 bash scripts/counters_batch.sh "32,32,4,128,8192,8" 2>&1 | head -5
