#!/bin/bash
# Session 9, device run 3: each consumer's softmax while its own PV GEMM is in flight (sm90_fwd._ov_step
# PV_OVERLAP: the wait behind a block boundary ptxas does not hoist it over), A/B in random-order rounds
# against the same builds without it: D=128 two consumers (n128s2; n64s3 at the short causal cells), D=256
# (n64s2), D=64 three consumers (x3, which spills with it) and, at the short lengths, two consumers against
# the Triton short tiles the API runs there.
# The PV_OVERLAP code was removed after this run; to repeat it, apply docs/experiments/session9_pv_overlap.diff
# and restore the *_ov configurations of scripts/ab_sm90.py (git show f97ef3a).
#   bash scripts/session9_run3.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT/d128" "$OUT/d256" "$OUT/d64"
ab() {  # ab DIR SECONDS CONFIGS CASES REFERENCE
  timeout $2 python3 scripts/ab_sm90.py --out $OUT/$1 --configs $3 --cases $4 --rounds 10 --reference tree/$5 2>&1 \
    | grep -vE "^correctness .*done" | tail -14
}
ab d128 200 n128s2,n128s2_ov,n64s3,n64s3_ov 128:512,128:1024,128:2048,128:4096,128:16384 n128s2
ab d256 120 n64s2,n64s2_ov 256:512,256:2048,256:16384 n64s2
ab d64 160 m192n128s2_x3_nopp,m192n128s2_x3_nopp_ov,t_m64n64s3,n128s2_ov,n64s3_ov 64:512,64:2048,64:16384 m192n128s2_x3_nopp
