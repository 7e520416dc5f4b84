#!/bin/bash
# Session 44 call 6: four parts of each tile as a cluster of four CTAs at 128 registers at launch (two CTAs an SM, so that
# issue 5's (1,8,512,64) runs 64 tiles x 4 parts in one wave), with docs/experiments/session44_cluster_tree.diff rebased
# on the shipped meeting (swizzle, relaxed acknowledgement, CTA-scope waits) and CL_SKEW: float64 checks, bitwise
# repeats, graph replay of many calls (cluster_tree_ab.py --call 6) and of one call (small_graph_ab.py).
#   git apply docs/experiments/session44_cluster_tree.diff first (the working tree of the call); bash scripts/session44_run6.sh
source "$(dirname "$0")/device_prelude.sh"
{
timeout 120 python3 scripts/precompile.py --jobs 16 --match kv2 --match bf16-d 2>&1 | tail -1
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 300 python3 scripts/cluster_tree_ab.py --out "$OUT" --precompile 14 --rounds 15 --call 6
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 120 python3 scripts/small_graph_ab.py --out "$OUT" --rounds 9 --configs cl2_n64,cl4n64r,cl4n64r@skew0 \
  --shapes 1:8:512:64 2>&1 | tail -3
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
