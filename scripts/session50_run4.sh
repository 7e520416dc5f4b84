#!/bin/bash
# Session 50 call 4: evidence for the final rule of clusters of sixteen: the split-rule and cluster GPU tests (the
# rule's new cases), compute-sanitizer memcheck / synccheck over sanitize_clusters.py (session 50's cases added), the
# counters (work counts across input classes) and dudect at MQA (1,32,1,1,8192,128) (sixteen parts, one cluster of
# sixteen).
#   bash scripts/session50_run4.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
timeout 120 python3 scripts/precompile.py --jobs 16 --match kv 2>&1 | tail -1
echo "precompile $(( $(date +%s) - t0 )) s"
timeout 120 python3 -m pytest -q -m gpu -n 6 --dist loadgroup tests/test_gpu.py -o cache_dir=build/pcb -rf \
  -k "split_the_keys or clusters or one_query_gqa or packed_decode" > "$OUT/gpu_tests_clusters.log" 2>&1
echo "test_gpu rc $? $(( $(date +%s) - t0 )) s"; grep -E "passed|failed" "$OUT/gpu_tests_clusters.log" | tail -2
grep "^FAILED" "$OUT/gpu_tests_clusters.log" | head -20
for tool in memcheck synccheck; do
  echo "== $tool"; timeout 100 compute-sanitizer --tool $tool --kernel-name kns=attn_fwd python3 scripts/sanitize_clusters.py 2>&1 | tail -2
done
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 100 python3 -m dhpfa counters --out "$OUT/counters" --shape 1,32,1,128,8192,1 2>&1 | tail -4
timeout 80 python3 -m dhpfa leak --out "$OUT/leak" --shape 1,32,1,128,8192,1 --samples 1000 2>&1 | tail -4
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
