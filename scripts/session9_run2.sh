#!/bin/bash
# Session 9, device run 2: the softmax's row max as a tree (sm90_fwd._row_max) and per-thread releases of
# K/V slots (sm90_fwd._release: no warpgroup bar.sync before each), A/B in random-order rounds against
# HEAD's kernel (out/ab/sm90_orig.py) and the tree max alone (out/ab/sm90_treemax.py); both copies have
# their relative imports made absolute (carry out/ab). Then the GPU tests of the Gluon builds.
#   bash scripts/session9_run2.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT/ab1" "$OUT/ab2"
M="--module base=out/ab/sm90_orig.py --module treemax=out/ab/sm90_treemax.py --reference base --rounds 10"
timeout 230 python3 scripts/ab_sm90.py --out $OUT/ab1 $M --configs n128s2,n64s3 \
  --cases 128:512,128:1024,128:2048,128:16384 2>&1 | grep -vE "^correctness .*done" | tail -12
timeout 170 python3 scripts/ab_sm90.py --out $OUT/ab2 $M --configs m192n128s2_x3_nopp,n64s2 \
  --cases 64:8192,64:16384,256:2048,256:16384 2>&1 | grep -vE "^correctness .*done" | tail -12
