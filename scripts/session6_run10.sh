#!/bin/bash
# Session 6, device run 10: grids of few programs (D=64) in CUDA-graph replay over longer key blocks
# (scripts/small_tiles.py --preset tiny).
export PYTHONPATH=$PWD/src:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
timeout ${LIMIT:-300} python3 scripts/small_tiles.py --out $OUT --preset tiny \
  --shapes "1,8,512,64;2,8,512,64;1,4,1024,64" 2>&1 | tail -70
