#!/bin/bash
# Session 64 call 5: 68-120 pairs at 2,048-8,192 keys (D=128), where a program a pair ties or loses to the forward
# kernels' split keys (two programs a pair, two CTAs an SM: call 2, 96 pairs x 4,096 keys 55.12 against 50.49): two
# programs a pair on the stream kernel's smaller rings (p2w64s2: 64 KB, three an SM; p2w64s3: 96 KB, two an SM), each
# pair in two pieces merged by the TAIL arrival.
#   bash scripts/session64_run5.sh   (carry [".whl"]; writes under $OUT; about 1 minute)
source "$(dirname "$0")/device_prelude.sh"
{
echo "== two programs a pair, D=128 ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 128 --keys 2048,4096,8192 \
  --batches 17,20,24,28,30 --builds w128s3,p2w64s2,p2w64s3 --out "$OUT/p2" 2>&1 | grep -v Warning | grep -v "^check "
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
