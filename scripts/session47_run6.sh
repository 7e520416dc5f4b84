#!/bin/bash
# Session 47 call 6: variants.SPLIT_KV_CLUSTER_DIMS (4 / 8 / 16-part splits with pairs of parts as clusters of two,
# sm90_fwd CL_TREE) through the API against the API without it (rule_check --set cltree: float64 check of every case,
# cuDNN beside), and the GPU tests of the new builds (every shipped CL_TREE variant against float64, on a full grid,
# the launched binary the audited one, and the split tests' plans).
#   bash scripts/session47_run6.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
timeout 200 python3 scripts/precompile.py --jobs 16 --match kv 2>&1 | tail -1
echo "precompile $(( $(date +%s) - t0 )) s"
timeout 240 python3 scripts/rule_check.py --out "$OUT" --rounds 11 --set cltree
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 260 python3 -m pytest -q -m gpu -n 6 --dist loadgroup tests/test_gpu.py -o cache_dir=build/pcb -rf \
  -k "kv4ovcl or kv8ovcl or kv16ovcl or split_the_keys or clusters or one_query_gqa or packed_decode" \
  > "$OUT/gpu_tests_cltree.log" 2>&1
echo "test_gpu rc $? $(( $(date +%s) - t0 )) s"; grep -E "passed|failed" "$OUT/gpu_tests_cltree.log" | tail -2
grep "^FAILED" "$OUT/gpu_tests_cltree.log" | head -20
} 2>&1 | tee "$OUT/run.log"
