#!/bin/bash
# Session 63 call 2: the stream kernel's WHOLE_SKIP (a program whose range is whole pairs skips the arrivals' fences)
# through the decode GPU tests, then decode_stream_whole63.py over more keys: D=128 (groups of 8 and 4) and D=64, with
# and without WHOLE_SKIP.
#   bash scripts/session63_run2.sh   (carry [".whl"]; writes under $OUT; about 6 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
decode_tests
echo "== decode_stream_whole63 D=128 ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 128 --keys 1024,2048,4096,8192,16384 \
  --batches 34,40,45,50,60,66,75,99 --out "$OUT/w128" 2>&1 | grep -v Warning
echo "== decode_stream_whole63 D=128 groups of 4 ($(( $(date +%s) - t0 )) s)"
timeout 80 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 128 --heads 32:8 --keys 1024,4096 \
  --batches 17,20,25,33,49 --out "$OUT/w128g4" 2>&1 | grep -v Warning | grep -v "^check"
echo "== decode_stream_whole63 D=64 ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 64 --keys 1024,2048,4096,8192,16384 \
  --batches 34,40,45,50,60,66 --out "$OUT/w64" 2>&1 | grep -v Warning
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
