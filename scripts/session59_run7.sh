#!/bin/bash
# Session 59 call 7: the fill rule through the API against the rule without it (rule_check --set s59c), the decode GPU
# tests on the final rule.
#   bash scripts/session59_run7.sh   (carry [".whl"]; writes under $OUT; about 3 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
timeout 120 python3 scripts/rule_check.py --set s59c --rounds 7 --out "$OUT" 2>&1 | grep -v Warning
echo "elapsed $(( $(date +%s) - t0 )) s"
decode_tests
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
