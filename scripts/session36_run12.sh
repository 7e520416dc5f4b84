#!/bin/bash
# Session 36 call 12: the final source's varlen GPU tests that split, decode, group, use kvcache or combine.
#   bash scripts/session36_run12.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 280 python3 -m pytest -q -m gpu -n 8 tests/test_varlen.py -k "${TESTS_K:-split or decode or kvcache or grouped or combine}" \
  -p no:cacheprovider -rf > "$OUT/tests.log" 2>&1
echo "tests rc $? $(( $(date +%s) - t0 )) s"; grep -E "passed|failed" "$OUT/tests.log" | tail -1
grep "^FAILED" "$OUT/tests.log" | head
echo "elapsed $(( $(date +%s) - t0 )) s"
