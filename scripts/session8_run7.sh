#!/bin/bash
# Session 8, device run 7: run 6's A/B again (the base copy now imports dhpfa.kernels absolutely), then every
# GPU test at HEAD in five parallel pytest processes (scripts/session7_run2.sh).
#   bash scripts/session8_run7.sh   (writes under $OUT; carry out/ab)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT/ab1" "$OUT/ab2"
timeout 200 python3 scripts/ab_sm90.py --out $OUT/ab1 --module base=out/ab/sm90_base.py --configs n128s2 \
  --cases 128:512,128:1024,128:2048,128:16384 --rounds 12 --reference base 2>&1 | grep -vE "^correctness .*done" | tail -12
timeout 120 python3 scripts/ab_sm90.py --out $OUT/ab2 --module base=out/ab/sm90_base.py --configs m192n128s2_x3_nopp \
  --cases 64:8192,64:16384 --rounds 12 --reference base 2>&1 | grep -vE "^correctness .*done" | tail -6
PYTEST_LIMIT=${PYTEST_LIMIT:-300} bash scripts/session7_run2.sh
