#!/bin/bash
# Session 35 call 5: rotary embeddings in kvcache_append's launch. The varlen kvcache / paged / rotary / plan GPU tests,
# then scripts/kvcache_step_ab.py (session 35's decode step against session 34's: graph replay and eager).
#   bash scripts/session35_run5.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 240 python3 -m pytest -q -m gpu -n 6 tests/test_varlen.py \
  -k "kvcache or append or paged or leftpad or batch_idx or plan or rotary" -p no:cacheprovider -rf \
  > "$OUT/tests_varlen5.log" 2>&1
echo "varlen tests rc $? $(( $(date +%s) - t0 )) s"; grep -E "passed|failed" "$OUT/tests_varlen5.log" | tail -1
grep "^FAILED" "$OUT/tests_varlen5.log" | head
timeout 240 python3 scripts/kvcache_step_ab.py --rounds 7 --out "$OUT" 2>&1 | tail -10
echo "elapsed $(( $(date +%s) - t0 )) s"
