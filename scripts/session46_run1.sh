#!/bin/bash
# Session 46 call 1: session 45's prepared call 12 (D=128 clusters two an SM with two stages: cluster_occupancy.py,
# cluster_tree_ab.py --call 19), then the wider peer sweep (peer_sweep.py --set wide: fp16, grouped heads, decode,
# fewer keys than queries; session 45's note 4).
#   bash scripts/session46_run1.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 120 python3 scripts/cluster_occupancy.py 2>&1 | tail -7
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 300 python3 scripts/cluster_tree_ab.py --out "$OUT" --precompile 14 --rounds 15 --call 19
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 200 python3 scripts/peer_sweep.py --out "$OUT" --set wide --precompile 14 --rounds 5 --budget-s 120
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
