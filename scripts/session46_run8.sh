#!/bin/bash
# Session 46 call 8: variants.FEW_PROGRAMS_CAUSAL_SHORT (causal D=128 grids of 133-264 programs below 1,024 keys: the
# short tiles) through the API against the API without it (rule_check.py --set causalmid), and the GPU tests of this
# session's last choices.
#   bash scripts/session46_run8.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 150 python3 scripts/precompile.py --jobs 16 --match d128 --match causal 2>&1 | tail -1
timeout 100 python3 scripts/precompile.py --jobs 16 --match d96 --match causal 2>&1 | tail -1
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 120 python3 scripts/rule_check.py --out "$OUT" --rounds 11 --set causalmid
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 150 python3 -m pytest -m gpu -q -n 14 --dist loadgroup -p no:cacheprovider tests/test_gpu.py \
  -k "causal_d128_grids or few_query_calls or one_query_tile or few_program or top_left" 2>&1 | tail -4
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
