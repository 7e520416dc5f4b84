#!/bin/bash
# Session 57 call 2: the merged decode builds with PREFETCH (both head dims) and D=64 merging up to 64 parts (two pairs
# at D=64 merged in 64 parts): the decode GPU tests, memcheck / synccheck over API calls, rule_check --set s57 (the API
# against the session's start), counters over 6 rounds and dudect at two pairs D=64 (64 parts) and 8 pairs D=128.
# (The decode tests and counters blocks as device_prelude.sh's functions since the session's review: same
# commands, not GPU-run in this form.)
#   bash scripts/session57_run2.sh   (carry [".whl"]; writes under $OUT; about 6 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
decode_tests
echo "== rule_check s57 ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 scripts/rule_check.py --out "$OUT/rc" --set s57 --rounds 7 2>&1 | grep -v "^$" | tail -18
sanitize_decode 60 6 ", shipped builds" --seed 3 \
  --cases "1,16,2,65541,64;2,32,8,4097,64;1,28,4,40000,64;1,32,8,16385,128;1,16,2,65537,128"
counters_and_leak 1,16,1,64,65536,2:6 1,32,1,128,32768,8:6
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
