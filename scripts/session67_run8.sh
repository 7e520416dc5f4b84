#!/bin/bash
# Session 67 call 8: the kvcache GPU tests after the lse copy moved behind return_softmax_lse (the last source change).
#   bash scripts/session67_run8.sh   (carry [".whl"]; writes under $OUT; about 1 minute)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== kvcache GPU tests ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 -m pytest -q -m gpu -n 8 tests/test_varlen.py -k "kvcache" -o cache_dir=build/pcb -rf \
  > "$OUT/kv_tests.log" 2>&1
echo "rc $? ($(( $(date +%s) - t0 )) s)"; grep -E "passed|failed" "$OUT/kv_tests.log" | tail -2
grep -E "^FAILED" "$OUT/kv_tests.log" | head -20
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
