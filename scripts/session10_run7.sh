#!/bin/bash
# Session 10, device run 7: (a) the deferred O-store wait again (run 6: D=128 S=512 x1.051, 1K / 2K x0.998 /
# x0.999; 15 rounds, graph replay; carry out/ab); (b) the API against the same build launched directly, in
# graph replay at 2K and eagerly at 16K, beside cuDNN (session 9's "API reads 1-4% below" wrinkle).
#   bash scripts/session10_run7.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT/defer" "$OUT/api"
timeout 200 python3 scripts/ab_sm90.py --out $OUT/defer --module defer=out/ab/sm90_defer.py --configs n128s2_qd \
  --cases 128:512,128:2048 --rounds 15 --reference tree/n128s2_qd --graph --no-correctness 2>&1 | tail -5
timeout 200 python3 scripts/ab_sm90.py --out $OUT/api --configs n128s2 --cases 128:16384 --rounds 15 \
  --reference tree/n128s2 --no-correctness 2>&1 | tail -3
