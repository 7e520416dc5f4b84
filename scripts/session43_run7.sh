#!/bin/bash
# (Ran on an intermediate form of the cluster build, not in the tree: docs/perf-log.md "Session 43" describes each; call 4's
# no-meeting configurations are gone. The shipped form is that of calls 9-11.)
# Session 43 call 7: stamps inside the cluster meeting (bulk-copy form): scripts/cluster_stamps.py.
#   bash scripts/session43_run7.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 100 python3 scripts/cluster_stamps.py --launches 20 --out "$OUT"; echo "rc $?"
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
