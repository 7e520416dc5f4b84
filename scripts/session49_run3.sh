#!/bin/bash
# Session 49 call 3: clusters of eight in the dispatch rule (variants.SM90_FEW_PROGRAMS_CL8_TREE, FEW_ROWS_SPLIT_KV's
# eight parts from 1,024 keys): the API with / without them (rule_check --set octs49, float64 of every case, cuDNN
# beside); 32 / 64 parts as clusters of eight, eight parts against sixteen pairs at D=64, 12-15 tiles
# (cluster_tree_ab --call 31: float64 checks, repeats, timing); the GPU tests of the cluster and split builds;
# compute-sanitizer memcheck / synccheck over sanitize_clusters.py (its few-row cases now run clusters of eight);
# counters and dudect at a decode shape that runs them.
#   bash scripts/session49_run3.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
timeout 200 python3 scripts/precompile.py --jobs 16 --match kv 2>&1 | tail -1
echo "precompile $(( $(date +%s) - t0 )) s"
timeout 200 python3 scripts/rule_check.py --out "$OUT" --rounds 11 --set octs49
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 200 python3 scripts/cluster_tree_ab.py --out "$OUT/ab31" --call 31 --precompile 14 --rounds 11 2>&1 | grep -v "^bitwise" 
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
