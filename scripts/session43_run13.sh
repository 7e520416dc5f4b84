#!/bin/bash
# Session 43 call 13: issue 5's small-shape measure (graphs of one call, as dhpfa bench --parts small) for the API's
# call (the cluster build) against the builds before it, in the same rounds (scripts/small_graph_ab.py).
#   bash scripts/session43_run13.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 200 python3 scripts/small_graph_ab.py --rounds 9 --out "$OUT"; echo "rc $?"
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
