#!/bin/bash
# Session 10, device run 9: the first key block of a tile unmasked where every row sees it in full (a public
# runtime branch in _visit_blocks) against HEAD's kernel (out/ab/sm90_base.py: sm90_fwd.py of 6240a03 with
# absolute imports; carry out/ab), on the shipped Gluon builds. Correctness of the tree's builds first.
#   bash scripts/session10_run9.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
ab() {  # ab TAG SECONDS CONFIG CASES
  mkdir -p $OUT/$1
  timeout $2 python3 scripts/ab_sm90.py --out $OUT/$1 --module base=out/ab/sm90_base.py --configs $3 --cases $4 \
    --rounds 12 --reference base/$3 2>&1 | grep -vE "^correctness .*done" | tail -6
}
ab d128s 200 n128s2_qd 128:512,128:2048
ab d128c 150 n64s3 128:512
ab d128l 150 n128s2 128:16384
ab d256 200 n64s2 256:512,256:16384
ab d64 150 m192n128s2_x3_nopp 64:16384
