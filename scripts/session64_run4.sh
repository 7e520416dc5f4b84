#!/bin/bash
# Session 64 call 4: the one-wave tiers (variants.SWAP_DECODE_ONE: a program a pair on the stream build at most the SMs'
# pairs) through the API: the decode GPU tests (the new API cases among them), rule_check --set s64 (the API against the
# rule without the tiers), memcheck / synccheck / racecheck over API calls they take, counters and dudect at 68 pairs
# x 1,025 keys (D=128) and 120 pairs x 1,025 keys (D=64).
#   bash scripts/session64_run4.sh   (carry [".whl"]; writes under $OUT; about 6 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
decode_tests
echo "== rule_check s64 ($(( $(date +%s) - t0 )) s)"
timeout 120 python3 scripts/rule_check.py --set s64 --rounds 7 --out "$OUT/rule" 2>&1 | grep -v Warning | tail -17
sanitize_decode 100 4 " (one wave)" --cases "17,32,4,1025,128;33,32,4,2047,128;30,32,4,4000,64;24,16,4,1000,64"
racecheck_decode 100 4 64 "17,32,4,1025,128;28,32,4,1000,64"
counters_and_leak 17,32,1,128,1025,4:5 30,32,1,64,1025,4:5
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
