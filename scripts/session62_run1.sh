#!/bin/bash
# Prepared in session 61 for the next session (not run): decode_stream_tail.py (the stream kernel's TAIL build: float64
# checks, bits as the shipped build's, then against the shipped stream build, the one-part merged kernel, the API and
# cuDNN at 128-512 pairs).
#   bash scripts/session62_run1.sh   (carry [".whl"]; writes under $OUT; about 2 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== decode_stream_tail ($(( $(date +%s) - t0 )) s)"
timeout 420 python3 scripts/decode_stream_tail.py --rounds 7 2>&1 | grep -v Warning
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
