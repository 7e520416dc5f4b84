#!/bin/bash
# Session 62 call 5: the stream build past four waves at 16,384 keys against the forward kernels (api_prev: the rule at
# three waves), where call 4's float64 reference ran the host out of memory (decode_stream_wide62.py now checks only
# up to --check-most elements).
#   bash scripts/session62_run5.sh   (carry [".whl"]; writes under $OUT; about 1.5 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== decode_stream_wide62 16,384 keys ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 scripts/decode_stream_wide62.py --rounds 5 --dims 128 --keys 16384 --batches 134,166,199 \
  --prev-waves 3 --out "$OUT" 2>&1 | grep -v Warning
echo "rc ${PIPESTATUS[0]} elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
