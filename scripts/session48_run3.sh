#!/bin/bash
# Session 48 call 3: variants.FEW_ROWS_SPLIT_KV through the API against the rule before (rule_check --set fewrows48:
# float64 check of every case, cuDNN beside), then the GPU tests of the cluster and split builds (every shipped
# cluster variant against float64, on a full grid, the launched binary the audited one, the split tests' plans).
#   bash scripts/session48_run3.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
timeout 200 python3 scripts/precompile.py --jobs 16 --match kv 2>&1 | tail -1
echo "precompile $(( $(date +%s) - t0 )) s"
timeout 200 python3 scripts/rule_check.py --out "$OUT" --rounds 11 --set fewrows48
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 240 python3 -m pytest -q -m gpu -n 6 --dist loadgroup tests/test_gpu.py -o cache_dir=build/pcb -rf \
  -k "kv2ovcl or kv4ovcl or kv8ovcl or kv16ovcl or split_the_keys or clusters or one_query_gqa or packed_decode" \
  > "$OUT/gpu_tests_clusters.log" 2>&1
echo "test_gpu rc $? $(( $(date +%s) - t0 )) s"; grep -E "passed|failed" "$OUT/gpu_tests_clusters.log" | tail -2
grep "^FAILED" "$OUT/gpu_tests_clusters.log" | head -20
} 2>&1 | tee "$OUT/run.log"
