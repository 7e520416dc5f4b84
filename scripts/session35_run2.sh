#!/bin/bash
# Session 35 call 2: kvcache_append on the GPU (the kvcache GPU tests, the new append test), the host time of decode
# steps (kvcache_host.py) with the new tokens written by kvcache_append and by torch indexing, and host_parts.py.
#   bash scripts/session35_run2.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 200 python3 -m pytest -q -m gpu -n 6 tests/test_varlen.py -k "kvcache or append or paged or leftpad or batch_idx" \
  -p no:cacheprovider -rf > "$OUT/tests2.log" 2>&1
echo "tests rc $? $(( $(date +%s) - t0 )) s"; grep -E "passed|failed" "$OUT/tests2.log" | tail -1
grep "^FAILED" "$OUT/tests2.log" | head
timeout 120 python3 scripts/host_parts.py --out "$OUT" 2>&1 | tail -30
timeout 150 python3 scripts/kvcache_host.py --out "$OUT" 2>&1 | tail -12
mv "$OUT/kvcache_host.json" "$OUT/kvcache_host_fused.json"; mv "$OUT/kvcache_host_prof.txt" "$OUT/kvcache_host_prof_fused.txt"
DHPFA_APPEND_TORCH=1 timeout 150 python3 scripts/kvcache_host.py --out "$OUT" 2>&1 | tail -12
echo "elapsed $(( $(date +%s) - t0 )) s"
