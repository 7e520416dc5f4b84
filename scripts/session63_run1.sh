#!/bin/bash
# Session 63 call 1: decode of a little more than one wave of (sequence, key/value head) pairs with whole pairs a
# program (decode_stream_whole63.py: the stream kernel with as many programs as pairs, two or three an SM), at D=128
# and D=64; then session 62's prepared question, D=128 at seven and eight full waves (the rule stops at six).
#   bash scripts/session63_run1.sh   (carry [".whl"]; writes under $OUT; about 8 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== decode_stream_whole63 D=128 ($(( $(date +%s) - t0 )) s)"
timeout 230 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 128 --keys 1024,4096 \
  --batches 32,34,40,45,48,50,60,66,75,99 --out "$OUT/w128" 2>&1 | grep -v Warning
echo "== decode_stream_whole63 D=64 ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 64 --keys 1024,4096,16384 \
  --batches 34,40,50,66,75,100 --out "$OUT/w64" 2>&1 | grep -v Warning
echo "== decode_stream_wide62 D=128 seven and eight waves ($(( $(date +%s) - t0 )) s)"
timeout 120 python3 scripts/decode_stream_wide62.py --rounds 5 --dims 128 --keys 1024,4096,16384 --batches 232,265 \
  --out "$OUT/d128" 2>&1 | grep -v Warning
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
