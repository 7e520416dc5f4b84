#!/bin/bash
# Session 33 run 13: the Hopper paged builds with a window and / or soft-cap: the varlen GPU tests around them
# (pytest-xdist, 6 workers), memcheck and synccheck over the sanitizer child (new paged window / soft-cap cases; kernels
# compiled first), scripts/paged_gather_bench.py (chunks now on the paged builds) and scripts/paged_hopper_ab.py.
#   bash scripts/session33_run13.sh   (device tool: carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 150 python3 scripts/precompile.py --jobs 16 2>&1 | tail -1
echo "precompile $(( $(date +%s) - t0 )) s"
timeout 200 python3 -m pytest -q -m gpu -n 6 -p no:cacheprovider tests/test_varlen.py \
  -k "paged or kvcache or sm90_varlen_against or window" -rf 2>&1 | tail -6
echo "tests done at $(( $(date +%s) - t0 )) s"
SAN_LIMIT=${SAN_LIMIT:-100} SAN_TAIL=3 bash scripts/sanitize_child.sh
echo "sanitizers done at $(( $(date +%s) - t0 )) s"
timeout 60 python3 scripts/paged_gather_bench.py --rounds 7 --out "$OUT" 2>&1 | tail -7
timeout 60 python3 scripts/paged_hopper_ab.py --rounds 5 --out "$OUT" 2>&1 | tail -8
echo "elapsed $(( $(date +%s) - t0 )) s"
