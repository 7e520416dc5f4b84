#!/bin/bash
# Session 49 call 7: 32 / 64 parts as clusters of eight at D=64, merging from the workspace (sm90_fwd WS_MERGE): the API
# with / without them (rule_check --set octs49d64), and the GPU tests that run them and the split rule.
#   bash scripts/session49_run7.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
timeout 200 python3 scripts/precompile.py --jobs 16 --match kv --match d64 2>&1 | tail -1
echo "precompile $(( $(date +%s) - t0 )) s"
timeout 120 python3 scripts/rule_check.py --out "$OUT" --rounds 11 --set octs49d64
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 200 python3 -m pytest -q -m gpu -n 6 --dist loadgroup tests/test_gpu.py -o cache_dir=build/pcb -rf \
  -k "kv32ovcl8 or kv64ovcl8 or split_the_keys or one_query_gqa or packed_decode" > "$OUT/gpu_tests.log" 2>&1
echo "test_gpu rc $? $(( $(date +%s) - t0 )) s"; grep -E "passed|failed" "$OUT/gpu_tests.log" | tail -2
grep "^FAILED" "$OUT/gpu_tests.log" | head -20
} 2>&1 | tee "$OUT/run.log"
