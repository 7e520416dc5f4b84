#!/bin/bash
# Prepared in session 62 for the next session (not run): the stream build where its rule has not been measured.
# D=64 past one wave (the rule keeps D=64 at one wave: session 61 call 14 read the stream build behind the API at
# 264-512 pairs but 400 x 16,384, with two programs an SM; here one and two an SM at 140-400 pairs), and D=128 at seven
# and eight full waves with a small last one (the rule stops at six, so the API column is the forward kernels there).
#   bash scripts/session63_run1.sh   (carry [".whl"]; writes under $OUT; about 4 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== decode_stream_wide62 D=64 past one wave ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 scripts/decode_stream_wide62.py --rounds 5 --dims 64 --keys 1024,4096,16384 \
  --batches 40,50,66,75,100 --out "$OUT/d64" 2>&1 | grep -v Warning
echo "== decode_stream_wide62 D=128 seven and eight waves ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 scripts/decode_stream_wide62.py --rounds 5 --dims 128 --keys 1024,4096,16384 --batches 232,265 \
  --out "$OUT/d128" 2>&1 | grep -v Warning
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
