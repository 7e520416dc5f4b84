#!/bin/bash
# Session 63 call 6: k whole pairs a program at D=128 up to 2,048 keys (variants.SWAP_DECODE_WHOLE_K): the decode GPU
# tests (the API's 800, 600 and 1,000-pair cases on it), rule_check --set s63c, memcheck / synccheck over API calls on
# it, counters and dudect at 400 pairs x 1,025 keys (200 programs of two pairs).
#   bash scripts/session63_run6.sh   (carry [".whl"]; writes under $OUT; about 6 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
decode_tests
echo "== rule_check s63c ($(( $(date +%s) - t0 )) s)"
timeout 100 python3 scripts/rule_check.py --set s63c --rounds 7 --out "$OUT/rule" 2>&1 | grep -v Warning | tail -12
sanitize_decode 60 4 " (k pairs)" --cases "100,32,4,1025,128;150,16,4,2000,128;250,32,4,777,128"
counters_and_leak 100,32,1,128,1025,4:5
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
