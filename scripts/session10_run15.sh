#!/bin/bash
# Session 10, device run 15: D=64 S=512 / 1K (issue 2's last cell: 1.42-1.49x FA2, 1.5x asked) over the Triton
# tiles' neighbours in graph replay: 64x64 with 2 / 3 / 4 stages, pointer loads, 64x128, 128x64 and 128x128 with
# 8 warps, against the API's 64x64 TMA tiles (t_m64n64s3). Correctness of each first.
#   bash scripts/session10_run15.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT/d64"
timeout 400 python3 scripts/ab_sm90.py --out $OUT/d64 \
  --configs t_m64n64s3,t_m64n64s2,t_m64n64s4,t_m64n64s3_ptr,t_m64n128s2,t_m128n64s3w8,t_m128n128s2w8 \
  --cases 64:512,64:1024 --rounds 15 --reference tree/t_m64n64s3 2>&1 | grep -vE "^correctness .*done" | tail -6
