#!/bin/bash
# Session 66 call 1: MHA decode (one query a sequence, H = H_KV) on the swap decode kernels as groups of one
# (variants.SWAP_DECODE_MIN_GROUP = 1) against the forward kernels (2) and cuDNN; the decode GPU tests with the new MHA
# cells; memcheck / synccheck on MHA cells of each route (parts, a program a pair on the stream build, whole pairs).
#   bash scripts/session66_run1.sh   (carry [".whl"]; writes under $OUT; about 6 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== rule_check --set s66 ($(( $(date +%s) - t0 )) s)"
timeout 300 python3 scripts/rule_check.py --set s66 --rounds 7 --out "$OUT"
decode_tests
sanitize_decode 100 6 " MHA" --cases "1,32,32,16385,128;4,32,32,1029,64;5,32,32,2049,128;2,16,16,4097,64;40,16,16,1024,128"
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
