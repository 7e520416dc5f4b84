#!/bin/bash
# Session 10, device run 6: (a) what a query tile costs beyond its key blocks (scripts/tile_overhead.py,
# graph replay, D=128 and 64); (b) session 8's deferred O-store wait (docs/experiments/
# session8_defer_store_wait.diff, applied to a copy of the kernel in out/ab/sm90_defer.py; carry out/ab) again
# in CUDA-graph replay: session 8 run 7 timed it eagerly through the direct launch path, which run 3 of this
# session found host-bound at S=512.
#   bash scripts/session10_run6.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT/tiles" "$OUT/defer"
timeout 200 python3 scripts/tile_overhead.py --out $OUT/tiles --head-dims 128,64 2>&1 | tail -14
timeout 300 python3 scripts/ab_sm90.py --out $OUT/defer --module defer=out/ab/sm90_defer.py --check-all \
  --configs n128s2_qd,n64s3 --cases 128:512,128:1024,128:2048 --rounds 12 --reference tree/n128s2_qd --graph 2>&1 \
  | grep -vE "^correctness .*done" | tail -9
