#!/bin/bash
# Session 35 call 7: the whole varlen GPU file (after the scratch allocation in _varlen_call), test_sm90_fwd, then host
# time of decode steps (kvcache_host.py: the kvcache plans and the varlen decode call).
#   bash scripts/session35_run7.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 200 python3 scripts/precompile.py --jobs 16 --match varlen 2>&1 | tail -1
echo "precompile $(( $(date +%s) - t0 )) s"
timeout 300 python3 -m pytest -q -m gpu -n 6 --dist loadgroup tests/test_varlen.py -p no:cacheprovider -rf \
  > "$OUT/tests_varlen7.log" 2>&1
echo "varlen tests rc $? $(( $(date +%s) - t0 )) s"; grep -E "passed|failed" "$OUT/tests_varlen7.log" | tail -1
grep "^FAILED" "$OUT/tests_varlen7.log" | head
timeout 100 python3 scripts/kvcache_host.py --out "$OUT" 2>&1 | cut -c1-75 | tail -9
echo "elapsed $(( $(date +%s) - t0 )) s"
