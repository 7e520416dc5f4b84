#!/bin/bash
# Session 59, prepared for the next session (not run): the fill rule's untimed edges (decode_batch59.py --next).
#   bash scripts/session59_run9.sh   (carry [".whl"]; writes under $OUT; about 1 minute)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
timeout 200 python3 scripts/decode_batch59.py --next --rounds 7 2>&1 | grep -v Warning
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
