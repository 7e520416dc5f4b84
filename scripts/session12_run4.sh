#!/bin/bash
# Session 12, device run 4: after the split across programs took causal grids from 1,024 keys and every length past
# the short tiles. GPU tests (the split through the API, causal and past 4K keys; every shipped variant against
# float64 and the audited binary; head dims and odd shapes; plans, tuner, launch cache), memcheck and synccheck over
# the sanitizer child, and the API against the split build and variants.select's choice at 8K / 16K keys.
#   bash scripts/session12_run4.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 330 python3 -m pytest -q -m gpu tests/test_gpu.py -k "not protocol_grid and not full_grid" -p no:cacheprovider \
  2>&1 | tail -3
timeout 120 python3 -m pytest -q -m gpu tests/test_plans.py tests/test_tune.py tests/test_launch_cache.py \
  tests/test_sm90_fwd.py -k "not thousands" -p no:cacheprovider 2>&1 | tail -2
SAN_TAIL=3 bash scripts/sanitize_child.sh
timeout 60 python3 scripts/small_sweep.py --out $OUT/h4d64 --heads 4 --seq-k 2048,8192 --rounds 5 | head -2
