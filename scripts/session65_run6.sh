#!/bin/bash
# Session 65 call 6 (the session's final rule): the decode GPU tests, rule_check --set s65c (D=128's spread to 4,096
# keys, D=64's band and spread to 65,536, against call 5's rule), memcheck / synccheck over calls the change takes.
#   bash scripts/session65_run6.sh   (carry [".whl"]; writes under $OUT; about 3 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
decode_tests
echo "== rule_check s65c ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 scripts/rule_check.py --set s65c --rounds 7 --out "$OUT/rule" 2>&1 | grep -v Warning | tail -11
sanitize_decode 90 3 " (the final keys)" --cases "21,32,8,65535,64;105,32,4,4095,128"
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
