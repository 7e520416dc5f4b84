#!/bin/bash
# (Ran on an intermediate form of the cluster build, not in the tree: docs/perf-log.md "Session 43" describes each; call 4's
# no-meeting configurations are gone. The shipped form is that of calls 9-11.)
# Session 43 call 2: SPLIT_KV=2 with the tile's two programs as one cluster (sm90_fwd CLUSTER; the meeting in
# distributed shared memory): a smoke launch under a time limit (a broken hand-over would hang), then
# scripts/cluster_ab.py (float64 checks, bitwise repeats, graph-replay timing against the API, x1 and kv2).
#   bash scripts/session43_run2.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 90 python3 scripts/cluster_ab.py --smoke; rc=$?; echo "smoke rc $rc"; [ $rc = 0 ] || exit 1
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 300 python3 scripts/cluster_ab.py --rounds 15 --out "$OUT"; echo "rc $?"
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
