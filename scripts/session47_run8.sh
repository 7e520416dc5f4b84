#!/bin/bash
# Session 47 call 8: evidence for the CL_TREE builds (sm90_fwd; variants.SPLIT_KV_CLUSTER_DIMS): compute-sanitizer
# memcheck and synccheck over scripts/sanitize_clusters.py (now with the 4 / 8 / 16-part cluster cases), hardware
# counters and dudect through the API at the packed decode call (1,32,1,64,32768,8) (16 parts, pairs as clusters).
#   bash scripts/session47_run8.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 60 python3 scripts/precompile.py --jobs 16 --match ovcl 2>&1 | tail -1
for tool in memcheck synccheck; do
  echo "== $tool"; timeout 80 compute-sanitizer --tool $tool --kernel-name kns=attn_fwd python3 scripts/sanitize_clusters.py 2>&1 | tail -2
done
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 90 python3 -m dhpfa counters --out "$OUT/counters" --shape 1,32,1,64,32768,8 2>&1 | tail -25
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 70 python3 -m dhpfa leak --out "$OUT/leak" --shape 1,32,1,64,32768,8 --samples 1000 2>&1 | tail -12
echo "elapsed $(( $(date +%s) - t0 )) s"

# (after call 7's one failure, an out-of-memory beside another worker's 55 GB of cached workspaces: the full-grid tests
# now empty the cache after split builds) the full-grid tests again
timeout 150 python3 scripts/precompile.py --jobs 16 --match sm90_ws 2>&1 | tail -1
timeout 100 python3 -m pytest -q -m gpu -n 6 --dist loadgroup tests/test_gpu.py -o cache_dir=build/pcb -rf \
  -k "full_grid and sm90_ws" > "$OUT/gpu_tests_full_grid.log" 2>&1
echo "test_gpu -k full_grid rc $? $(( $(date +%s) - t0 )) s"; grep -E "passed|failed" "$OUT/gpu_tests_full_grid.log" | tail -2
grep "^FAILED" "$OUT/gpu_tests_full_grid.log" | head -20
} 2>&1 | tee "$OUT/run.log"
