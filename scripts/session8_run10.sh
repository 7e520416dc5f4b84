#!/bin/bash
# Session 8, device run 10: the D=64 S=512 grid cell (issue 2's last cell under 1.5x FA2) over stages and
# warps of the 64x64 Triton tiles, graph replay, random order per round.   bash scripts/session8_run10.sh
export PYTHONPATH=$PWD/src:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
timeout 300 python3 scripts/small_tiles.py --out $OUT --preset d64s512 --rounds 15 --shapes "32,32,512,64" 2>&1 \
  | grep -E "==| us " | tail -24
