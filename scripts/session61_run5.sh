#!/bin/bash
# Session 61 call 5: the decode GPU tests (with SWAP_DECODE_OVER's cases), rule_check --set s61b (its later cells:
# D=128 three waves, last waves of up to 0.3 of the SMs), counters and dudect at a shape it routes (136 pairs, 4 parts).
#   bash scripts/session61_run5.sh   (carry [".whl"]; writes under $OUT; about 7 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
decode_tests
echo "== rule_check s61b ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 scripts/rule_check.py --set s61b --rounds 9 --out "$OUT" 2>&1 | grep -v Warning
counters_and_leak 17,32,1,128,2049,8:6
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
