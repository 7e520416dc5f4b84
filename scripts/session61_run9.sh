#!/bin/bash
# Session 61 call 9: the stream build through the API: the decode GPU tests (its launcher and API tests among them),
# rule_check --set s61c (against call 4's rule), memcheck / synccheck / racecheck over API calls it takes, counters and
# dudect at (17,32,1,128,2049,8) (136 pairs, 132 programs).
#   bash scripts/session61_run9.sh   (carry [".whl"]; writes under $OUT; about 7 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
decode_tests
echo "== rule_check s61c ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 scripts/rule_check.py --set s61c --rounds 9 --out "$OUT" 2>&1 | grep -v Warning
sanitize_decode 120 4 " (stream)" --cases "17,32,8,2049,128;34,32,4,8193,64;35,8,4,1025,128"
racecheck_decode 150 4 61 "17,32,8,1025,128;17,32,8,2049,64"
counters_and_leak 17,32,1,128,2049,8:6
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
