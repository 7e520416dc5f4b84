#!/bin/bash
# Session 52 call 5: the API with the exchange on by default against the tree (rule_check --set pull52: X16's first
# twenty cases and small grids whose split may be one cluster, the (1,8,512,64) goal among them), eager and graph replay.
#   bash scripts/session52_run5.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
timeout 400 python3 scripts/rule_check.py --set pull52 --out "$OUT/rc" 2>&1 | tail -32
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
