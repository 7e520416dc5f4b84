#!/bin/bash
# Session 21, device run 2: where the equal-length varlen call should take the dense path (variants.VARLEN_DENSE_MIN_Q):
# queries per sequence 64-256 at D=128 (H 16/16 and 32/8) and D=64, beside the varlen kernel; eager host time of both.
#   bash scripts/session21_run2.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
S="16,64,64,16,16,128;16,96,96,16,16,128;16,128,128,16,16,128;16,192,192,16,16,128"
S="$S;8,96,96,32,8,128;8,128,128,32,8,128;8,192,192,32,8,128;8,256,256,32,8,128"
S="$S;32,64,64,16,16,64;32,128,128,16,16,64;32,256,256,16,16,64;32,512,512,32,32,64;4,128,1024,32,8,64"
timeout 500 python3 scripts/varlen_bench.py --out "$OUT/varlen" --rounds 7 --leak-samples 0 --parts equal \
  --equal-shapes "$S" 2>&1 | tail -30
