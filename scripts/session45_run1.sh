#!/bin/bash
# Session 45 call 1: the two-CTA cluster builds at 128 registers at launch (two CTAs an SM) on grids of 67-132 tiles,
# float64 checks and bitwise repeats of those builds, graph-replay timing against the API (cluster_tree_ab.py --call 16).
#   bash scripts/session45_run1.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 420 python3 scripts/cluster_tree_ab.py --out "$OUT" --precompile 14 --rounds 15 --call 16
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
