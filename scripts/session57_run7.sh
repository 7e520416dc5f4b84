#!/bin/bash
# Session 57 call 7: the shipped merged builds with the merge from shared memory (variants.SWAP_DECODE_MERGE_ASYNC):
# the decode GPU tests, rule_check --set s57 (the API against the session's start), memcheck / synccheck / racecheck
# over API calls, counters over 6 rounds and dudect at two pairs D=64 (64 parts) and 8 pairs D=128.
# (The decode tests and counters blocks as device_prelude.sh's functions since the session's review: same
# commands, not GPU-run in this form.)
#   bash scripts/session57_run7.sh   (carry [".whl"]; writes under $OUT; about 6 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
decode_tests
echo "== rule_check s57 ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 scripts/rule_check.py --out "$OUT/rc" --set s57 --rounds 9 2>&1 | grep -v "^$" | tail -18
sanitize_decode 60 8 ", shipped builds" --seed 4 \
  --cases "1,16,2,65541,64;2,32,8,4097,64;1,28,4,40000,64;1,32,8,16385,128;1,16,2,65537,128"
racecheck_decode 120 6 5 "1,16,2,65541,64;1,16,2,65537,128"
counters_and_leak 1,16,1,64,65536,2:6 1,32,1,128,32768,8:6
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
