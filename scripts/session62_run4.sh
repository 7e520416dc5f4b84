#!/bin/bash
# Session 62 call 4: the stream build's D=128 rule to six full waves (variants.SWAP_DECODE_STREAM_WAVES): the decode
# GPU tests (800 pairs among the API's stream cases), memcheck / synccheck over API calls of five and six waves,
# decode_stream_wide62.py at 2,048 and 16,384 keys past four waves (call 3 read 1,024 and 4,096).
#   bash scripts/session62_run4.sh   (carry [".whl"]; writes under $OUT; about 4 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
decode_tests
sanitize_decode 120 4 " (stream, 5-6 waves)" --cases "166,32,4,2049,128;100,32,8,1025,128"
echo "== decode_stream_wide62 four to six waves ($(( $(date +%s) - t0 )) s)"
timeout 100 python3 scripts/decode_stream_wide62.py --rounds 5 --dims 128 --keys 2048,16384 --batches 134,166,199 \
  --out "$OUT" 2>&1 | grep -v Warning
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
