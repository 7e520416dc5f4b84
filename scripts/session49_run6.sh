#!/bin/bash
# Session 49 call 6: D=64 cluster builds with global levels above their clusters, merging in registers (as shipped)
# against the workspace merge (cluster_tree_ab --call 34, the @wsm module: WS_MERGE for every such build).
#   bash scripts/session49_run6.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
timeout 200 python3 scripts/precompile.py --jobs 16 --match kv --match d64 2>&1 | tail -1
echo "precompile $(( $(date +%s) - t0 )) s"
timeout 250 python3 scripts/cluster_tree_ab.py --out "$OUT/ab34" --call 34 --precompile 14 --rounds 15 2>&1
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
