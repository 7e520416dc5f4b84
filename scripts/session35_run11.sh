#!/bin/bash
# Session 35 call 11 (review commit): the varlen kvcache / paged / rotary / plan / split GPU tests.
#   bash scripts/session35_run11.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 300 python3 -m pytest -q -m gpu -n 6 tests/test_varlen.py \
  -k "kvcache or append or paged or leftpad or batch_idx or plan or rotary or split or decode" -p no:cacheprovider -rf \
  > "$OUT/tests_varlen11.log" 2>&1
echo "varlen tests rc $? $(( $(date +%s) - t0 )) s"; grep -E "passed|failed" "$OUT/tests_varlen11.log" | tail -1
grep "^FAILED" "$OUT/tests_varlen11.log" | head
timeout 100 python3 scripts/kvcache_host.py --out "$OUT" 2>&1 | cut -c1-75 | tail -9
echo "elapsed $(( $(date +%s) - t0 )) s"
