#!/bin/bash
# Session 50 call 7: FEW_ROWS_HALF_KEYS's edge (D=64's half split at 1,536 and 1,280 keys a part against the split's
# global tree; the API is the rule) and MQA of four sequences at 2,048 keys (cluster_tree_ab --call 37, timing only).
#   bash scripts/session50_run7.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
timeout 200 python3 scripts/cluster_tree_ab.py --out "$OUT/ab37" --call 37 --precompile 14 --rounds 15 --timing-only 2>&1
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
