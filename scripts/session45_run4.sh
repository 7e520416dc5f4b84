#!/bin/bash
# Session 45 call 4: the two-an-SM cluster builds below 1,024 keys at D=32 and the D=96 / causal D=128 cluster threshold
# (cluster_tree_ab.py --call 18), then the API against cuDNN and FA2 over head dims and shapes outside the protocol's
# grid (scripts/peer_sweep.py, new).
#   bash scripts/session45_run4.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 150 python3 scripts/cluster_tree_ab.py --out "$OUT" --precompile 14 --rounds 15 --call 18 --timing-only
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 400 python3 scripts/peer_sweep.py --out "$OUT" --precompile 16 --rounds 5 --budget-s 200
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
