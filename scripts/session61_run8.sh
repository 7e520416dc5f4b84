#!/bin/bash
# Session 61 call 8: decode_stream61.py after the cursors without divisions and the batched arrival (one SC fence).
#   bash scripts/session61_run8.sh   (carry [".whl"]; writes under $OUT; about 2 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== decode_stream61 ($(( $(date +%s) - t0 )) s)"
timeout 420 python3 scripts/decode_stream61.py --rounds 7 --keys 1024,4096,16384 --batches 32,34,40,66,68,100,128 \
  2>&1 | grep -v Warning
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
