#!/bin/bash
# Session 10, device run 4: runs 1 and 3 again in CUDA-graph replay (--graph). In run 3 every directly
# launched configuration read the same ~180 TFLOPS at D=128 S=512 causal while the API (n64s3, cached
# launcher) read 305: the direct launch path (descriptors built per call) was host-bound there.
#   bash scripts/session10_run4.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT/d128" "$OUT/d64"
timeout 280 python3 scripts/ab_sm90.py --out $OUT/d128 --configs n64s3,n128s2_qd,n128s3,n64s4_d128,n64s4_qd,n64s3_qd \
  --cases 128:512,128:1024 --rounds 12 --reference tree/n64s3 --no-correctness --graph 2>&1 | tail -5
timeout 280 python3 scripts/ab_sm90.py --out $OUT/d64 --configs t_m64n64s3,n128s2,n128s2_qd,n128s3_qd,n128s4_qd \
  --cases 64:512,64:1024,64:2048 --rounds 12 --reference tree/t_m64n64s3 --no-correctness --graph 2>&1 | tail -7
