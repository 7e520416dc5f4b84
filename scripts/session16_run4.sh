#!/bin/bash
# Session 16, device run 4: D=64 short cells (issue 2's S=512 cell) with the Gluon one-consumer 64-row tiles that
# few-program grids run (64x128 with the PV overlap, 64x64 with and without), on the full 16K-token grid in graph
# replay, against the API's 64x64 TMA tiles (t_m64n64s3). Correctness of each first.
#   bash scripts/session16_run4.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT/d64"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 400 python3 scripts/ab_sm90.py --out $OUT/d64 --configs t_m64n64s3,m64n128s2_x1_ov,m64n64s3_x1_d64,m64n64s3_x1_ov \
  --cases 64:512,64:1024,64:2048 --rounds 15 --reference tree/t_m64n64s3 2>&1 | grep -vE "^correctness .*done" | tail -8
