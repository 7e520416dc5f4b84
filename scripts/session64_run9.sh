#!/bin/bash
# Session 64 call 9: the whole-pair builds on the PAIR_UNITS schedule and the spread rule (variants.SWAP_DECODE_WHOLE_
# UNITS / _SPREAD) through the API: the decode GPU tests, rule_check --set s64b (against the flat schedule's binary and
# the forward kernels), memcheck / synccheck / racecheck over API calls on it, counters and dudect at 512 pairs x 1,025
# keys (264 programs of 1-2 pairs).
#   bash scripts/session64_run9.sh   (carry [".whl"]; writes under $OUT; about 6 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
decode_tests
echo "== rule_check s64b ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 scripts/rule_check.py --set s64b --rounds 7 --out "$OUT/rule" 2>&1 | grep -v Warning | tail -14
sanitize_decode 100 4 " (pair units)" --cases "64,32,8,1025,128;113,32,4,1500,128;34,32,4,1023,128;150,32,4,1000,64"
racecheck_decode 100 4 64 "64,32,8,1025,128;34,32,4,700,64"
counters_and_leak 64,32,1,128,1025,8:5
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
