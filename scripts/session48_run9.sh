#!/bin/bash
# Session 48 call 9: clusters of four for calls of few rows (variants.SM90_FEW_PROGRAMS_CL4_TREE, FEW_ROWS_SPLIT_KV):
# cluster_tree_ab --call 27's float64 checks and bitwise repeats of the quad builds; the API with / without them
# (rule_check --set quads48, float64 of every case, cuDNN beside); the GPU tests of the cluster and split builds;
# compute-sanitizer memcheck / synccheck over sanitize_clusters.py (its few-row cases now run clusters of four);
# counters and dudect at a quad shape.
#   bash scripts/session48_run9.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
timeout 200 python3 scripts/precompile.py --jobs 16 --match kv 2>&1 | tail -1
echo "precompile $(( $(date +%s) - t0 )) s"
timeout 200 python3 scripts/cluster_tree_ab.py --out "$OUT/checks" --call 27 --checks-only 2>&1 | tail -6
timeout 200 python3 scripts/rule_check.py --out "$OUT" --rounds 11 --set quads48
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 240 python3 -m pytest -q -m gpu -n 6 --dist loadgroup tests/test_gpu.py -o cache_dir=build/pcb -rf \
  -k "kv2ovcl or kv4ovcl or kv8ovcl or kv16ovcl or split_the_keys or clusters or one_query_gqa or packed_decode" \
  > "$OUT/gpu_tests_clusters.log" 2>&1
echo "test_gpu rc $? $(( $(date +%s) - t0 )) s"; grep -E "passed|failed" "$OUT/gpu_tests_clusters.log" | tail -2
grep "^FAILED" "$OUT/gpu_tests_clusters.log" | head -20
for tool in memcheck synccheck; do
  echo "== $tool"; timeout 100 compute-sanitizer --tool $tool --kernel-name kns=attn_fwd python3 scripts/sanitize_clusters.py 2>&1 | tail -2
done
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 100 python3 -m dhpfa counters --out "$OUT/counters" --shape 1,32,1,128,4096,8 2>&1 | tail -4
timeout 80 python3 -m dhpfa leak --out "$OUT/leak" --shape 1,32,1,128,4096,8 --samples 1000 2>&1 | tail -4
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
