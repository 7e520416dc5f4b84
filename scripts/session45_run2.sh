#!/bin/bash
# Session 45 call 2: the two-CTA-an-SM cluster rule (variants.SM90_FEW_PROGRAMS_CLUSTER_2X) through the API: the
# few-program GPU tests with the new test, the launched-binary test of the new variants, graph replay of many calls
# against the rule before (cluster_tree_ab.py --call 17, api_prev), graphs of one call (issue 5's measure) for
# grids of 128 tiles and for D=128 at 384 / 256 keys (the cluster threshold question).
#   bash scripts/session45_run2.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 150 python3 scripts/precompile.py --jobs 16 --match kv2 2>&1 | tail -1
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 240 python3 -m pytest -m gpu -q -n 14 --dist loadgroup -p no:cacheprovider tests/test_gpu.py \
  -k "few_program or clusters_two_an_sm or (launched_binary_is_the_audited_binary and kv2)" 2>&1 | tail -4
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 200 python3 scripts/cluster_tree_ab.py --out "$OUT" --precompile 14 --rounds 15 --call 17 --timing-only
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 150 python3 scripts/small_graph_ab.py --out "$OUT" --rounds 9 --configs api_prev,cl2n64 \
  --shapes 1:16:512:64:1024,1:16:512:64:4096,1:8:512:128:384,1:8:512:128:256,1:8:512:64:384
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
