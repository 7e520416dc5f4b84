#!/bin/bash
# Session 65 call 8: the decode map's (call 7) worst cell, D=128 136 pairs x 4,096 keys ((17,32,8,1,4096,128): the
# stream build 72.30 us against cuDNN's 68.19), and D=64 320 pairs (the forward kernels x0.99 of cuDNN at 1,024-16,384
# keys): the flat schedule on the whole ring at 1.5 / 2 / 3 programs an SM (pieces merged), a program a pair, the
# stream build, beside the API.
#   bash scripts/session65_run8.sh   (carry [".whl"]; writes under $OUT; about 1.5 minutes)
source "$(dirname "$0")/device_prelude.sh"
{
echo "== D=128 136 pairs ($(( $(date +%s) - t0 )) s)"
timeout 120 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 128 --keys 2048,4096,16384 --heads 32:8 \
  --batches 17 --builds s128,w64s2,w64s3,x15w64s2,x2w64s2,x3w64s2 --out "$OUT/d128" 2>&1 | grep -v Warning \
  | grep -v "^check "
echo "== D=64 320 pairs ($(( $(date +%s) - t0 )) s)"
timeout 120 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 64 --keys 1024,4096,16384 --heads 32:8 \
  --batches 40 --builds s128x2,b30,w128s3,x15w128s2,x2w128s2,x3w128s2 --out "$OUT/d64" 2>&1 | grep -v Warning \
  | grep -v "^check "
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
