#!/bin/bash
# Session 61 call 2: decode_many61.py (pairs past the SMs: the merged swap kernel at 2-16 parts, one or two programs
# an SM, against the API and cuDNN).
#   bash scripts/session61_run2.sh   (carry [".whl"]; writes under $OUT; about 4 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== decode_many61 ($(( $(date +%s) - t0 )) s)"
timeout 500 python3 scripts/decode_many61.py --rounds 7 2>&1 | grep -v Warning
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
