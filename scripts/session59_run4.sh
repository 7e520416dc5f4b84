#!/bin/bash
# Session 59 call 4: the swap decode rule's key thresholds lowered (rule_check --set s59b against session 59's start),
# the decode GPU tests on the final rule, counters and dudect at two new cells.
#   bash scripts/session59_run4.sh   (carry [".whl"]; writes under $OUT; about 5 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
timeout 200 python3 scripts/rule_check.py --set s59b --rounds 9 --out "$OUT" 2>&1 | grep -v Warning
echo "elapsed $(( $(date +%s) - t0 )) s"
decode_tests
counters_and_leak 4,32,1,64,4096,8:6 1,32,1,128,4096,8:6
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
