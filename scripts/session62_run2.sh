#!/bin/bash
# Session 62 call 2: the stream build for two and three full waves of pairs and a small last one at D=128
# (variants.SWAP_DECODE_STREAM_WAVES): the decode GPU tests (272 and 400 pairs among the API's stream cases), rule_check
# --set s62 (against session 61's rule), memcheck / synccheck over API calls it takes, counters and dudect at
# (34,32,1,128,1025,8) (272 pairs); decode_stream_wide62.py past four waves (536 and 560 pairs).
#   bash scripts/session62_run2.sh   (carry [".whl"]; writes under $OUT; about 7 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
decode_tests
echo "== rule_check s62 ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 scripts/rule_check.py --set s62 --rounds 7 --out "$OUT" 2>&1 | grep -v Warning
sanitize_decode 120 5 " (stream, 2-3 waves)" --cases "75,32,4,1025,128;101,32,4,4097,128;34,16,8,2049,128"
counters_and_leak 34,32,1,128,1025,8:5
echo "== decode_stream_wide62 past four waves ($(( $(date +%s) - t0 )) s)"
timeout 60 python3 scripts/decode_stream_wide62.py --rounds 5 --dims 128 --keys 1024,4096 --batches 134,140 \
  --out "$OUT" 2>&1 | grep -v Warning
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
