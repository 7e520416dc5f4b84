#!/bin/bash
# Session 48 call 8: part counts for the clusters of four (sm90_fwd CLUSTER_N = 4) on calls of few rows: decode as the
# API packs it, MQA, D=96, beside the pairs' cluster trees and the API (cluster_tree_ab --call 28, timing only).
#   bash scripts/session48_run8.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 500 python3 scripts/cluster_tree_ab.py --out "$OUT" --precompile 14 --rounds 11 --call 28 --timing-only
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
