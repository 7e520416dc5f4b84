#!/bin/bash
# Session 9, device run 7: two Q buffers, the next tile's Q loaded during this one (sm90_fwd Q_DOUBLE,
# launch q_double=): correctness with 7 programs (many tiles each) and with the full grid, then A/B in
# random-order rounds against the same builds with one Q buffer: D=128 (n128s2; n64s3 at the short causal
# cells) and D=64 (three consumers).
#   bash scripts/session9_run7.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT/check" "$OUT/d128" "$OUT/d64"
timeout 150 python3 scripts/ab_sm90.py --out $OUT/check --cases "" \
  --configs n128s2_qd,n128s2_qd_p7,n64s3_qd,n64s3_qd_p7,m192n128s2_x3_nopp_qd,m192n128s2_x3_nopp_qd_p7 2>&1 | tail -4
ab() {  # ab DIR SECONDS CONFIGS CASES REFERENCE
  timeout $2 python3 scripts/ab_sm90.py --out $OUT/$1 --configs $3 --cases $4 --rounds 12 --reference tree/$5 \
    --no-correctness 2>&1 | tail -10
}
ab d128 200 n128s2,n128s2_qd,n64s3,n64s3_qd 128:512,128:1024,128:2048,128:16384 n128s2
ab d64 100 m192n128s2_x3_nopp,m192n128s2_x3_nopp_qd 64:8192,64:16384 m192n128s2_x3_nopp
