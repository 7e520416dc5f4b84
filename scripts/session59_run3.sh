#!/bin/bash
# Session 59 call 3: 4 parts for 31-33 pairs through the API against the rule before (rule_check --set s59), the
# rule's key thresholds (decode_batch59.py --edges), the decode GPU tests on the new rule.
#   bash scripts/session59_run3.sh   (carry [".whl"]; writes under $OUT; about 5 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
timeout 200 python3 scripts/rule_check.py --set s59 --rounds 9 --out "$OUT" 2>&1 | grep -v Warning
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 120 python3 scripts/decode_batch59.py --edges --rounds 7 2>&1 | grep -v Warning
echo "elapsed $(( $(date +%s) - t0 )) s"
decode_tests
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
