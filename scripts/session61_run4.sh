#!/bin/bash
# Session 61 call 4: the rule (variants.SWAP_DECODE_OVER) through the API against the rule before and cuDNN
# (rule_check --set s61), memcheck / synccheck over API calls it routes, and pair counts past three waves
# (decode_many61: 300 / 400 / 404 pairs) for a next rule.
#   bash scripts/session61_run4.sh   (carry [".whl"]; writes under $OUT; about 4 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== rule_check s61 ($(( $(date +%s) - t0 )) s)"
timeout 240 python3 scripts/rule_check.py --set s61 --rounds 9 --out "$OUT" 2>&1 | grep -v Warning
sanitize_decode 120 4 " (SWAP_DECODE_OVER)" --cases "17,32,8,2049,128;34,32,4,8193,64;68,32,4,2050,128"
echo "== decode_many61 past three waves ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 scripts/decode_many61.py --rounds 5 --no-two --parts 2,4 --keys 4096,16384 \
  --shapes "75:32:4;100:32:4;101:32:4" 2>&1 | grep -v Warning | grep -v "^check"
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
