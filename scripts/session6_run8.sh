#!/bin/bash
# Session 6, device run 8: the D=64 grid cells in CUDA-graph replay over the shipped D=64 candidates
# (scripts/small_tiles.py --preset d64; random order per round), to place the Triton / Gluon boundary.
export PYTHONPATH=$PWD/src:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader
timeout ${LIMIT:-400} python3 scripts/small_tiles.py --out $OUT --preset d64 \
  --shapes "32,32,512,64;16,32,1024,64;8,32,2048,64;4,32,4096,64;2,32,8192,64;1,32,16384,64" 2>&1 | tail -110
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv,noheader
