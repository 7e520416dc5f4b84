#!/bin/bash
# Session 9, device run 11: two Q buffers against one at D=128 S = 4K-16K (random-order rounds, 15).
#   bash scripts/session9_run11.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT/ab"
timeout 200 python3 scripts/ab_sm90.py --out $OUT/ab --configs n128s2,n128s2_qd --cases 128:4096,128:8192,128:16384 \
  --rounds 15 --reference tree/n128s2 --no-correctness 2>&1 | tail -7
