#!/bin/bash
# The A/B of session 8 runs 6-7: the deferred O-store wait (tree) against HEAD's kernel at that time
# (out/ab/sm90_base.py, relative imports made absolute; carry out/ab), D=128 two consumers and D=64 three.
# The change was reverted; to repeat the A/B, apply docs/experiments/session8_defer_store_wait.diff first.
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT/ab1" "$OUT/ab2"
timeout 200 python3 scripts/ab_sm90.py --out $OUT/ab1 --module base=out/ab/sm90_base.py --configs n128s2 \
  --cases 128:512,128:1024,128:2048,128:16384 --rounds 12 --reference base 2>&1 | grep -vE "^correctness .*done" | tail -12
timeout 120 python3 scripts/ab_sm90.py --out $OUT/ab2 --module base=out/ab/sm90_base.py --configs m192n128s2_x3_nopp \
  --cases 64:8192,64:16384 --rounds 12 --reference base 2>&1 | grep -vE "^correctness .*done" | tail -6
