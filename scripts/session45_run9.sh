#!/bin/bash
# Session 45 call 9: the causal side of variants.long_tiles_fill: its GPU tests (and the non-causal ones again),
# and the rule through the API against the API without it (wave_rule_ab.py --check --causal).
#   bash scripts/session45_run9.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 100 python3 scripts/precompile.py --jobs 16 --match d64 2>&1 | tail -1
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 150 python3 -m pytest -m gpu -q -n 14 --dist loadgroup -p no:cacheprovider tests/test_gpu.py \
  -k "fill_the_last_wave" 2>&1 | tail -4
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 90 python3 scripts/wave_rule_ab.py --out "$OUT" --rounds 9 --check --causal
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
