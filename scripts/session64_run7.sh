#!/bin/bash
# Session 64 call 7: many pairs at short keys, where call 6's decode grid reads the API (the forward kernels) behind
# cuDNN ((64,32,8,1,1024,128) 69.0 against 65.4 us, (128,...) 129.7 / 124.3; D=64 x0.97-0.98): the stream kernel's
# flat schedule on the smaller rings (64 KB, three an SM) at 1.5 / 2 / 3 programs an SM, and the stream build (s128).
#   bash scripts/session64_run7.sh   (carry [".whl"]; writes under $OUT; about 2 minutes)
source "$(dirname "$0")/device_prelude.sh"
{
echo "== D=128 ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 128 --keys 1024,2048 --heads 32:8 \
  --batches 33,50,64,100,128 --builds s128,x15w64s2,x2w64s2,x3w64s2 --out "$OUT/d128" 2>&1 | grep -v Warning | grep -v "^check "
echo "== D=64 ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 64 --keys 1024,2048 --heads 32:8 \
  --batches 33,50,64,100,128 --builds s128x2,x15w128s2,x2w128s2,x3w128s2 --out "$OUT/d64" 2>&1 | grep -v Warning | grep -v "^check "
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
