#!/bin/bash
# Session 9, device run 4: each tile's first QK^T issued without a ping-pong turn (sm90_fwd QK0_TURN=False,
# TileConfig.qk0_turn), so that a consumer's epilogue and next first block leave the other consumer's path
# of turns; A/B in random-order rounds against the same builds with the turn: D=128 (n128s2; n64s3 at the
# short causal cells), D=256 (n64s2). Then the GPU tests of the Gluon builds.
# The QK0_TURN code was removed after this run; to repeat it, apply docs/experiments/session9_qk0_turn.diff and
# restore the *_t0 configurations of scripts/ab_sm90.py (git show 76a6855).
#   bash scripts/session9_run4.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT/d128" "$OUT/d256"
ab() {  # ab DIR SECONDS CONFIGS CASES REFERENCE
  timeout $2 python3 scripts/ab_sm90.py --out $OUT/$1 --configs $3 --cases $4 --rounds 12 --reference tree/$5 2>&1 \
    | grep -vE "^correctness .*done" | tail -14
}
ab d128 220 n128s2,n128s2_t0,n64s3,n64s3_t0 128:512,128:1024,128:2048,128:4096,128:16384 n128s2
ab d256 140 n64s2,n64s2_t0 256:512,256:1024,256:2048,256:16384 n64s2
