#!/bin/bash
# Session 10, device run 13: causal tiles with SKIP (each consumer computes only its own blocks) leave one
# consumer idle at each tile's end (consumer 0 has 2m+1 blocks of tile m, consumer 1 2m+2). Copies of the
# kernel in out/ab (carry out/ab): base = HEAD's sm90_fwd.py with absolute imports, the others base with
# docs/experiments/session10_causal_swap.diff, session10_causal_noturn.diff, or both applied:
# swap = consumer W takes row piece (W + t) % 2 of a causal unit's tile t, so each consumer's blocks over the
# pair are equal; noturn = each tile's first QK^T without a ping-pong turn (session 9 run 4, then eager);
# both. Correctness of every module, then graph replay at the short cells, against base (sm90_fwd.py of HEAD).
#   bash scripts/session10_run13.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT/d128" "$OUT/d256"
M="--module base=out/ab/sm90_base.py --module swap=out/ab/sm90_swap.py --module noturn=out/ab/sm90_noturn.py --module both=out/ab/sm90_both.py"
timeout 280 python3 scripts/ab_sm90.py --out $OUT/d128 $M --check-all --configs n64s3 --cases 128:512,128:1024,128:2048 \
  --rounds 12 --reference base/n64s3 2>&1 | grep -vE "^correctness .*done" | tail -8
timeout 250 python3 scripts/ab_sm90.py --out $OUT/d256 $M --check-all --configs n64s2 --cases 256:512,256:2048 \
  --rounds 12 --reference base/n64s2 2>&1 | grep -vE "^correctness .*done" | tail -6
