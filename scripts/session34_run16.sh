#!/bin/bash
# Session 34 run 16: flash_attn_with_kvcache's key rows by one kernel (triton_fwd.kvcache_bounds): precompile the
# varlen variants, the kvcache / paged / leftpad GPU tests with the new test_gpu_kvcache_bounds_match_the_torch_form
# (6 workers), then scripts/kvcache_bounds_ab.py (the torch form against the kernel, decode steps).
#   bash scripts/session34_run16.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 200 python3 scripts/precompile.py --jobs 16 --match varlen 2>&1 | tail -1
echo "precompile $(( $(date +%s) - t0 )) s"
timeout 200 python3 -m pytest -q -m gpu -n 6 tests/test_varlen.py -k "kvcache or paged or leftpad or batch_idx" \
  -p no:cacheprovider -rf > "$OUT/tests16.log" 2>&1
echo "tests rc $? $(( $(date +%s) - t0 )) s"; grep -E "passed|failed" "$OUT/tests16.log" | tail -1
grep "^FAILED" "$OUT/tests16.log" | head
timeout 150 python3 scripts/kvcache_bounds_ab.py --rounds 7 --out "$OUT" 2>&1 | tail -9
echo "elapsed $(( $(date +%s) - t0 )) s"
