#!/bin/bash
# Session 60, call 2: the swap decode kernel's even parts (variants.SWAP_DECODE_EVEN): float64 checks in every form,
# the API against session 54's equal parts at odd key counts (rule_check.py --set s60), the decode GPU tests, memcheck /
# synccheck over API calls at odd key counts, the steps sweep again.
#   bash scripts/session60_run2.sh   (carry [".whl"]; writes under $OUT; about 5 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== checks ($(( $(date +%s) - t0 )) s)"
timeout 120 python3 scripts/decode_even60.py 2>&1 | grep -v Warning
echo "== rule_check s60 ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 scripts/rule_check.py --set s60 --rounds 9 --out "$OUT/s60" 2>&1 | grep -v Warning
decode_tests
sanitize_decode 60 6 ", even parts" --seed 60 --cases "1,32,8,2049,64;1,32,8,4097,128;2,32,8,2049,128;1,32,4,16385,64;1,16,2,33000,128"
echo "== steps sweep ($(( $(date +%s) - t0 )) s)"
timeout 120 python3 scripts/peer_sweep.py --set steps --rounds 7 --precompile 8 --out "$OUT/steps" 2>&1 | grep -v Warning
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
