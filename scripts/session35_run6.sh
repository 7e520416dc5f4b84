#!/bin/bash
# Session 35 call 6: after the signature fix (rotary_interleaved=False calls are planned): the varlen kvcache / paged /
# rotary / plan GPU tests, scripts/kvcache_step_ab.py again, and dudect on planned decode steps (scripts/kvcache_leak.py).
#   bash scripts/session35_run6.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 240 python3 -m pytest -q -m gpu -n 6 tests/test_varlen.py \
  -k "kvcache or append or paged or leftpad or batch_idx or plan or rotary" -p no:cacheprovider -rf \
  > "$OUT/tests_varlen6.log" 2>&1
echo "varlen tests rc $? $(( $(date +%s) - t0 )) s"; grep -E "passed|failed" "$OUT/tests_varlen6.log" | tail -1
grep "^FAILED" "$OUT/tests_varlen6.log" | head
timeout 200 python3 scripts/kvcache_step_ab.py --rounds 7 --out "$OUT" 2>&1 | tail -10
timeout 200 python3 scripts/kvcache_leak.py --samples 1000 --out "$OUT" 2>&1 | tail -30
echo "elapsed $(( $(date +%s) - t0 )) s"
