#!/bin/bash
# Session 58 call 5: the final rule (SWAP_DECODE_SPLIT {64: 16, 128: 8} from 16 parts; the binaries hashed identical to
# calls 2 and 4's): the decode GPU tests, rule_check --set s58 (the API against the session's start, cuDNN beside).
#   bash scripts/session58_run5.sh   (carry [".whl"]; writes under $OUT; about 4 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
decode_tests
echo "== rule_check s58 ($(( $(date +%s) - t0 )) s)"
timeout 240 python3 scripts/rule_check.py --out "$OUT/rc" --set s58 --rounds 9 2>&1 | grep -v "^$" | tail -24
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
