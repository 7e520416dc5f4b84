#!/bin/bash
# (Ran on an intermediate form of the cluster build, not in the tree: docs/perf-log.md "Session 43" describes each; call 4's
# no-meeting configurations are gone. The shipped form is that of calls 9-11.)
# Session 43 call 6: the cluster meeting by one bulk copy (part 1 stages its state in its own shared memory, then
# cp.async.bulk into part 0's area completing on part 0's mbarrier; sm90_fwd CLUSTER, third form): smoke launch under
# a time limit, float64 checks and bitwise repeats, graph-replay timing in one wave (cluster_ab.py --few), stamps.
#   bash scripts/session43_run6.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 90 python3 scripts/cluster_ab.py --smoke; rc=$?; echo "smoke rc $rc"; [ $rc = 0 ] || exit 1
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 300 python3 scripts/cluster_ab.py --rounds 15 --few --configs x1,kv2,cl2,cl2_n64,cl2_nomeet --out "$OUT"
echo "rc $?"
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 100 python3 scripts/cluster_stamps.py --launches 20 --out "$OUT"; echo "rc $?"
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
