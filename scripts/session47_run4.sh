#!/bin/bash
# Session 47 call 4: decode of 1-4 sequences (call 3's sweep: x0.70-0.85 of cuDNN at 1,024-8,192 keys) at other part
# counts than the split rule's, and 256-key blocks at D=64 (half the steps in each part's chain), against the API
# (cluster_tree_ab --call 23: float64 checks of the new builds, bitwise repeats, graph-replay timing).
#   bash scripts/session47_run4.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 400 python3 scripts/cluster_tree_ab.py --out "$OUT" --precompile 14 --rounds 15 --call 23
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
