#!/bin/bash
# Session 44 call 7: evidence for the shipped meeting (swizzled O, relaxed acknowledgement, CTA-scope waits): the GPU tests
# of the few-program grids, compute-sanitizer over the cluster cases, counters and dudect at (1,8,512,64), issue 5's small
# shapes; then the cluster builds below 512 keys (cluster_tree_ab.py --call 7, small_graph_ab.py).
#   bash scripts/session44_run7.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 120 python3 scripts/precompile.py --jobs 16 --match kv2 2>&1 | tail -1
timeout 120 python3 scripts/precompile.py --jobs 16 --match m64n 2>&1 | tail -1
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 200 python3 -m pytest -m gpu -q -n 14 --dist loadgroup -p no:cacheprovider tests/test_gpu.py \
  -k "few_program or (launched_binary_is_the_audited_binary and kv2)" 2>&1 | tail -3
echo "elapsed $(( $(date +%s) - t0 )) s"
for tool in memcheck synccheck; do
  echo "== $tool"; timeout 100 compute-sanitizer --tool $tool --kernel-name kns=attn_fwd python3 scripts/sanitize_clusters.py 2>&1 | tail -2
done
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 90 python3 -m dhpfa counters --shape 1,8,512,64 2>&1 | tail -4
timeout 60 python3 -m dhpfa leak --shape 1,8,512,64 --samples 1000 2>&1 | tail -3
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 60 python3 -m dhpfa bench --quick --dtypes bf16 --parts small --out "$OUT/small" 2>&1 | grep -v "^$" | tail -8
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 150 python3 scripts/cluster_tree_ab.py --out "$OUT" --precompile 14 --rounds 15 --call 7 --timing-only
timeout 100 python3 scripts/small_graph_ab.py --out "$OUT" --rounds 9 --configs x1,cl2_n64 \
  --shapes 1:8:512:64:256,1:8:512:64:384,1:8:512:64 2>&1 | tail -3
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
