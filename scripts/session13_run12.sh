#!/bin/bash
# Session 13, device run 12: calls of 65-192 queries per head on many programs at D=64 still run the 192-row tiles
# (variants.SM90_ONE_TILE covers at most 64): the 64-row short tiles and the 128-row two-consumer build beside them.
#   bash scripts/session13_run12.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
for sq in 96 128 192; do
  timeout 80 python3 scripts/decode_probe.py --out $OUT/q$sq --queries $sq --rounds 7 \
    --tiles triton_m64n64s3_tma,gluon_n128s2,gluon_x3 --shapes "16,32,8192,64;8,16,16384,64"
done
