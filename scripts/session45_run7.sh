#!/bin/bash
# Session 45 call 7: after the fill rule's second form (variants.long_tiles_fill: the short tiles' most tiles on one
# SM) and the test updates: the GPU tests they touch, the rule through the API against the API without it, and issue
# 5's table (dhpfa bench --quick: grid, small, short).
#   bash scripts/session45_run7.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 120 python3 scripts/precompile.py --jobs 16 --match d64 2>&1 | tail -1
timeout 60 python3 scripts/precompile.py --jobs 16 --match d32 --match sm90 2>&1 | tail -1
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 240 python3 -m pytest -m gpu -q -n 14 --dist loadgroup -p no:cacheprovider tests/test_gpu.py \
  -k "fill_the_last_wave or wide_batch_entries or clusters_two_an_sm or clusters_from_384 or few_program" 2>&1 | tail -4
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 90 python3 scripts/wave_rule_ab.py --out "$OUT" --rounds 9 --check
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 150 python3 -m dhpfa bench --quick --dtypes bf16 --parts grid,small --out "$OUT/bench" 2>&1 | grep -v "^$" | tail -40
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 60 python3 -m dhpfa bench --quick --dtypes bf16 --parts short --out "$OUT/short" 2>&1 | grep -v "^$" | tail -20
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
