#!/bin/bash
# Session 10, device run 1: two Q buffers where they were not tried. (a) D=64 S=512-4K, where the API runs
# the Triton 64x64 tiles (t_m64n64s3): the Gluon two-consumer build with one or two Q buffers and 2-4
# stages. (b) D=128 causal S=512 / 1K (the API: n64s3 at 512, n128s2_qd at 1K): n128s2_qd and n64s2_qd.
# Correctness of the new configurations first (7 programs: many tiles each; and the full grid).
#   bash scripts/session10_run1.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT/check" "$OUT/d64" "$OUT/d128c"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv
timeout 200 python3 scripts/ab_sm90.py --out $OUT/check --cases "" \
  --configs n128s3_qd,n128s3_qd_p7,n128s4_qd,n128s4_qd_p7,n64s2_qd,n64s2_qd_p7 2>&1 | grep -v "^correctness .*: done" | tail -6
ab() {  # ab DIR SECONDS CONFIGS CASES REFERENCE
  timeout $2 python3 scripts/ab_sm90.py --out $OUT/$1 --configs $3 --cases $4 --rounds 12 --reference tree/$5 \
    --no-correctness 2>&1 | tail -10
}
ab d64 240 t_m64n64s3,n128s2,n128s2_qd,n128s3_qd,n128s4_qd 64:512,64:1024,64:2048,64:4096 t_m64n64s3
ab d128c 150 n64s3,n128s2,n128s2_qd,n64s2_qd 128:512,128:1024 n64s3
