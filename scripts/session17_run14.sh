#!/bin/bash
# Session 17, device run 14: issue 5's small shape (1,8,512,64) and neighbours with 256-key blocks in the one-consumer
# Gluon build (small_tiles.py --preset n256; graph replay, interleaved rounds, each checked against float64 first).
#   bash scripts/session17_run14.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 300 python3 scripts/small_tiles.py --out $OUT --preset n256 --causal 0 --rounds 15 \
  --shapes "1,8,512,64;1,8,768,64;2,4,512,64;1,16,512,64" 2>&1 | grep -vE "Warning|warn"
