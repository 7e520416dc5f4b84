#!/bin/bash
# Session 48 call 1: the cluster meeting copies only the tile's rows below S_q (m, l, then those O rows), and tiles of at
# most 32 such rows split their pairs' key blocks evenly at every head dim (sm90_fwd._cluster_copy_bytes,
# CLUSTER_EVEN_ROWS), against the module before (kernels/_ab_prev.py = 47205c3's sm90_fwd, carried) on decode-like
# calls and full-row controls (cluster_tree_ab --call 25: 152 float64 checks, bitwise repeats, graph-replay timing).
#   bash scripts/session48_run1.sh   (carry [".whl", "src/dhpfa/kernels/_ab_prev.py"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 540 python3 scripts/cluster_tree_ab.py --out "$OUT" --precompile 14 --rounds 15 --call 25
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
