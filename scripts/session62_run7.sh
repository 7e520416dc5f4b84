#!/bin/bash
# Session 62 call 7: the stream build's last-wave bound at D=128 (SWAP_DECODE_STREAM_TAIL 0.3): last waves of 0.36-0.45
# of the SMs after one and three full waves (180-192 and 444-456 pairs) against the API (the forward kernels there).
#   bash scripts/session62_run7.sh   (carry [".whl"]; writes under $OUT; about 2 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== decode_stream_wide62 last waves of 0.36-0.45 ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 scripts/decode_stream_wide62.py --rounds 5 --dims 128 --keys 1024,4096,16384 \
  --batches 45,46,48,111,112,114 --out "$OUT" 2>&1 | grep -v Warning
echo "rc ${PIPESTATUS[0]} elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
