#!/bin/bash
# Session 58 call 7 (call 5's commands) on the final builds: SWAP_DECODE_SPLIT {64: 16, 128: 8} from 16 parts, the
# slice's warps along the query heads at D=128 (binaries hashed identical to call 5's at D=64, call 6's at D=128):
# the decode GPU tests, rule_check --set s58 (the API against the session's start, cuDNN beside).
#   bash scripts/session58_run7.sh   (carry [".whl"]; writes under $OUT; about 2 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
decode_tests
echo "== rule_check s58 ($(( $(date +%s) - t0 )) s)"
timeout 240 python3 scripts/rule_check.py --out "$OUT/rc" --set s58 --rounds 9 2>&1 | grep -v "^$" | tail -24
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
