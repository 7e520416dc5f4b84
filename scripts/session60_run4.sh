#!/bin/bash
# Session 60, call 4: the even parts' second form (no division: the shorter parts' blocks and the first longer part in
# KEYS_PER_PART) and the widened rule (SWAP_DECODE_FILL's tiers, D=64's 32 parts from 1,024 keys): float64 checks, the
# even / equal A/B, the rule against session 59's, the decode GPU tests, memcheck / synccheck, counters and dudect.
#   bash scripts/session60_run4.sh   (carry [".whl"]; writes under $OUT; about 5 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== checks ($(( $(date +%s) - t0 )) s)"
timeout 120 python3 scripts/decode_even60.py 2>&1 | grep -v Warning
echo "== even / equal ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 scripts/decode_even60.py --time --rounds 11 2>&1 | grep -v Warning
echo "== rule_check s60b ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 scripts/rule_check.py --set s60b --rounds 9 --out "$OUT/s60b" 2>&1 | grep -v Warning
decode_tests
sanitize_decode 60 6 ", even parts and the widened rule" --seed 60 \
  --cases "1,32,8,2049,64;1,32,8,4097,128;2,32,8,2049,128;1,32,4,2049,64;7,32,4,1031,128;1,48,6,9000,128"
counters_and_leak 1,32,1,128,4097,8:5 2,32,1,64,2049,8:5
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
