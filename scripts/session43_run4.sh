#!/bin/bash
# (Ran on an intermediate form of the cluster build, not in the tree: docs/perf-log.md "Session 43" describes each; call 4's
# no-meeting configurations are gone. The shipped form is that of calls 9-11.)
# Session 43 call 4: what SPLIT_KV=2 costs without its meeting (timing only, wrong results): x1 (the API's one-consumer
# build) against kv2 / cl2 with and without the hand-over, in one wave of programs at 512 queries (graph replay).
#   bash scripts/session43_run4.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 200 python3 scripts/cluster_ab.py --timing-only --few --rounds 15 --configs x1,kv2,kv2_nomeet,cl2,cl2_nomeet \
  --out "$OUT"; echo "rc $?"
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
