#!/bin/bash
# Session 61 calls 6-7: decode_stream61.py (the flat-schedule decode kernel: float64 checks, then against the API and cuDNN
# at 128-512 pairs).
#   bash scripts/session61_run6.sh   (carry [".whl"]; writes under $OUT; about 3 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== decode_stream61 ($(( $(date +%s) - t0 )) s)"
timeout 420 python3 scripts/decode_stream61.py --rounds 7 2>&1 | grep -v Warning
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
