#!/bin/bash
# Session 64 call 3: where a program a pair on the stream build's own ring (w128s3, the shipped binary) wins at one wave
# or less (call 2: D=128 1,024 keys x1.02-1.10 over the API at 68-132 pairs, 2,048 keys only at 68-80 and 128-132
# pairs; D=64 1,024 keys x1.02-1.05): keys between 512 and 3,072, 56-132 pairs (56 and 64: the parts kernel in the API),
# groups of 4 (H_KV=8) too.
#   bash scripts/session64_run3.sh   (carry [".whl"]; writes under $OUT; about 3 minutes)
source "$(dirname "$0")/device_prelude.sh"
{
echo "== D=128, 32:4 ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 128 --keys 640,768,1024,1536,2048,3072 \
  --batches 14,16,17,20,22,24,26,28,30,32,33 --builds w128s3 --out "$OUT/one128" 2>&1 | grep -v Warning | grep -v "^check "
echo "== D=128, 32:8 ($(( $(date +%s) - t0 )) s)"
timeout 100 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 128 --keys 1024,2048 --heads 32:8 \
  --batches 9,12,15,16 --builds w128s3 --out "$OUT/one128g4" 2>&1 | grep -v Warning | grep -v "^check"
echo "== D=64, 32:4 ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 64 --keys 512,768,1024,2048,4096 \
  --batches 14,17,20,24,28,30,32,33 --builds w128s3 --out "$OUT/one64" 2>&1 | grep -v Warning | grep -v "^check "
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
