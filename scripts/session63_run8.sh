#!/bin/bash
# Session 63 call 8: k whole pairs a program at D=64 and up to 4,096 keys: the decode GPU tests (the API cases moved
# with the rule), rule_check --set s63d, memcheck / synccheck over D=64 API calls on it.
#   bash scripts/session63_run8.sh   (carry [".whl"]; writes under $OUT; about 3 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
decode_tests
echo "== rule_check s63d ($(( $(date +%s) - t0 )) s)"
timeout 100 python3 scripts/rule_check.py --set s63d --rounds 7 --out "$OUT/rule" 2>&1 | grep -v Warning | tail -12
sanitize_decode 50 3 " (k pairs, D=64)" --cases "150,32,4,1025,64;99,32,4,1500,64"
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
