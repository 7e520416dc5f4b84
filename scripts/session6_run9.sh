#!/bin/bash
# Session 6, device run 9: the short cells (S <= 1K, D=64 and 128) in CUDA-graph replay over larger
# key blocks / query tiles of the Triton kernels and the Gluon choices (scripts/small_tiles.py --preset short).
export PYTHONPATH=$PWD/src:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader
timeout ${LIMIT:-400} python3 scripts/small_tiles.py --out $OUT --preset short \
  --shapes "32,32,512,64;16,32,1024,64;32,16,512,128;16,16,1024,128" 2>&1 | tail -100
