#!/bin/bash
# Session 64 call 2: one wave or less of (sequence, key/value head) pairs at D=128 (68-132 pairs, 512-8,192 keys),
# where the API runs the forward kernels' split keys and cuDNN leads at 1,024 keys by x1.035-1.04 (call 1): a program a
# pair on the stream build's own ring (w128s3: the shipped binary, 128-key blocks, 3 stages) or a 64-key 3-stage ring
# (w64s3: a new binary), and the stream build's flat schedule over the SMs (s128); D=64 w128s3 at 96-132 pairs.
#   bash scripts/session64_run2.sh   (carry [".whl"]; writes under $OUT; about 3 minutes)
source "$(dirname "$0")/device_prelude.sh"
{
echo "== one wave or less, D=128 ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 128 --keys 512,1024,2048,4096,8192 \
  --batches 17,20,24,28,30,32,33 --builds w64s3,w128s3,s128 --out "$OUT/one128" 2>&1 | grep -v Warning | grep -v "^check "
echo "== one wave or less, D=64 ($(( $(date +%s) - t0 )) s)"
timeout 60 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 64 --keys 1024,4096 --batches 24,28,32,33 \
  --builds w128s2,w128s3 --out "$OUT/one64" 2>&1 | grep -v Warning | grep -v "^check "
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
