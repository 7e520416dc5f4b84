#!/bin/bash
# Session 63 call 9: the final rule (k pairs a program only past 1.25x the SMs' programs): the decode GPU tests and
# rule_check --set s63c (its (120,32,4,1,2048,128) and (330,...,1024,128) cells now on the rule before's kernels).
#   bash scripts/session63_run9.sh   (carry [".whl"]; writes under $OUT; about 2 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
decode_tests
echo "== rule_check s63c ($(( $(date +%s) - t0 )) s)"
timeout 100 python3 scripts/rule_check.py --set s63c --rounds 7 --out "$OUT/rule" 2>&1 | grep -v Warning | tail -12
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
