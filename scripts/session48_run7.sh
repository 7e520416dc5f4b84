#!/bin/bash
# Session 48 call 7: clusters of four CTAs (sm90_fwd CLUSTER_N = 4: each four parts of a split meet in two levels of
# distributed shared memory, the levels above in the workspace) against the pairs' cluster trees (CL_TREE) at the same
# part counts, on decode-like calls and two full-row controls (cluster_tree_ab --call 27: float64 checks, bitwise
# repeats, graph-replay timing); then the stamps of two quad builds (decode_stamps.py --cases q).
#   bash scripts/session48_run7.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 420 python3 scripts/cluster_tree_ab.py --out "$OUT" --precompile 14 --rounds 15 --call 27
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
