#!/bin/bash
# Session 43 call 9: the cluster builds (final form: separate ready / acknowledgement words, no workspace) against the
# API's choice, x1 and kv2 on the few-program grids the dispatch rule would cover (cluster_ab.py --rules), after the
# float64 checks and bitwise repeats.
#   bash scripts/session43_run9.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 90 python3 scripts/cluster_ab.py --smoke; rc=$?; echo "smoke rc $rc"; [ $rc = 0 ] || exit 1
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 400 python3 scripts/cluster_ab.py --rounds 11 --rules --configs x1,kv2,cl2,cl2_n64 --out "$OUT"
echo "rc $?"
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
