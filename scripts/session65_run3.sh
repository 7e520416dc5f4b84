#!/bin/bash
# Session 65 call 3: the rule of this session (SWAP_DECODE_WHOLE_SPREAD's balanced count first, D=64 too; the third
# D=128 SWAP_DECODE_ONE tier to 16,384 keys): the decode GPU tests, rule_check --set s65 against session 64's rule,
# memcheck / synccheck over new cells, counters and dudect at a D=64 cell the spread now takes, the bench's decode part.
#   bash scripts/session65_run3.sh   (carry [".whl"]; writes under $OUT; about 6 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
decode_tests
echo "== rule_check s65 ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 scripts/rule_check.py --set s65 --rounds 7 --out "$OUT/rule" 2>&1 | grep -v Warning | tail -21
sanitize_decode 90 3 " (the balanced count)" --cases "275,32,4,4097,64;105,32,4,1025,128;25,32,8,16383,64;33,32,4,8191,128"
counters_and_leak 65,32,1,64,1025,8:5
echo "== dhpfa bench --parts decode ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 -m dhpfa bench --parts decode --dtypes bf16 --out "$OUT/bench" 2>&1 | grep -v Warning | tail -38
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
