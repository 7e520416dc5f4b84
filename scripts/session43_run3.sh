#!/bin/bash
# (Ran on an intermediate form of the cluster build, not in the tree: docs/perf-log.md "Session 43" describes each; call 4's
# no-meeting configurations are gone. The shipped form is that of calls 9-11.)
# Session 43 call 3: where a SPLIT_KV=2 call's time goes, global meeting (kv2) against the cluster one (cl2):
# scripts/cluster_stamps.py (sm90_fwd STAMP: per-consumer clock and globaltimer stamps).
#   bash scripts/session43_run3.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 200 python3 scripts/cluster_stamps.py --out "$OUT"; echo "rc $?"
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
