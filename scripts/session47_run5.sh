#!/bin/bash
# Session 47 call 5: CL_TREE (sm90_fwd: split-KV tiles of 4-32 parts as clusters of two, each pair meeting in shared
# memory, the levels above in the workspace's tree) against the global trees at the same part counts and the API, on
# decode-like calls (1-4 sequences, MQA) and few-tile prefill (cluster_tree_ab --call 24: 96 float64 checks, bitwise
# repeats, graph-replay timing).
#   bash scripts/session47_run5.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 450 python3 scripts/cluster_tree_ab.py --out "$OUT" --precompile 14 --rounds 15 --call 24
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
