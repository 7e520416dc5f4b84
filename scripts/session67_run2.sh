#!/bin/bash
# Session 67 call 2: groups of 9-16 on the merged build's NQ = 16 form (half the staged parts, session 67): the decode
# GPU tests (new cells), rule_check --set s67 (against the forward kernels), memcheck / synccheck at merged group-16
# cells, counters / dudect at two of them, and the bench's decode part at the 64/4, 128/8 and 32/32 layouts.
#   bash scripts/session67_run2.sh   (carry [".whl"]; writes under $OUT; about 5 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
decode_tests
echo "== rule_check --set s67 ($(( $(date +%s) - t0 )) s)"
timeout 120 python3 scripts/rule_check.py --set s67 --rounds 7 --out "$OUT"
sanitize_decode 90 8 " (merged, groups of 16)" --cases "4,64,4,4096,128;4,64,4,1025,64;1,128,8,4097,128;7,64,4,1031,64;3,64,4,16384,64"
counters_and_leak 4,64,1,128,4096,4:5 7,64,1,64,1031,4:5
echo "== dhpfa bench --parts decode --decode-heads 64/4,128/8,32/32 ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 -m dhpfa bench --parts decode --dtypes bf16 --decode-heads 64/4,128/8,32/32 --out "$OUT/bench" \
  2>&1 | grep -v Warning | tail -110
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
