#!/bin/bash
# Session 66 call 9: groups of 9-16 on the NQ = 16 builds (split, stream, whole-pair) through the API: the decode GPU
# tests with the new cells, rule_check --set s66c (against SWAP_DECODE_MAX_GROUP = 8), memcheck / synccheck at three
# group-16 cells.
#   bash scripts/session66_run9.sh   (carry [".whl"]; writes under $OUT; about 4 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
decode_tests
echo "== rule_check --set s66c ($(( $(date +%s) - t0 )) s)"
timeout 120 python3 scripts/rule_check.py --set s66c --rounds 5 --out "$OUT"
sanitize_decode 90 8 " (groups of 16)" --cases "1,64,4,16385,128;40,64,4,4097,64;34,64,4,4096,128;1,128,8,4096,64"
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
