#!/bin/bash
# Session 21, device run 4: tile sizes of the varlen kernel's plain build on prefill workloads (scripts/varlen_tiles.py:
# 64-row tiles as shipped against 128-row tiles of 8 warps; D = 64, 128, 256).
#   bash scripts/session21_run4.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
t0=$(date +%s)
timeout 500 python3 scripts/varlen_tiles.py --out "$OUT/tiles" --rounds 7 2>&1 | tail -14
echo "total $(( $(date +%s) - t0 )) s"
