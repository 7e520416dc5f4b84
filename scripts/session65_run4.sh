#!/bin/bash
# Session 65 call 4: (1) D=64 at 16,384 keys and 166-197 pairs (the forward kernels in the API: SWAP_DECODE_WHOLE_BAND
# stops at 8,192 keys and the spread's fill at 198 programs) and at 32,768 keys past 1.5x the SMs' pairs (past the
# spread's keys): a program a pair (w128s2) and the balanced count (b20); (2) the two bench cells call 3 read behind
# cuDNN by 3-6% ((16,32,8,1,1024,128): 21.6 against 20.4; (32,32,8,1,1024,64): 20.0 against 19.4) beside the other
# builds there (the stream build's flat schedule s128 / s128x2, the smaller rings).
#   bash scripts/session65_run4.sh   (carry [".whl"]; writes under $OUT; about 2 minutes)
source "$(dirname "$0")/device_prelude.sh"
{
echo "== D=64, 16,384 keys, 1.25-1.5x the SMs' pairs; 32,768 keys ($(( $(date +%s) - t0 )) s)"
timeout 120 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 64 --keys 16384 --heads 32:8 \
  --batches 21,23,24 --builds w128s2,b20 --out "$OUT/d64" 2>&1 | grep -v Warning | grep -v "^check "
timeout 120 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 64 --keys 32768 --heads 32:8 \
  --batches 25,33,65,128 --builds b20 --out "$OUT/d64long" 2>&1 | grep -v Warning | grep -v "^check "
echo "== the bench cells behind cuDNN ($(( $(date +%s) - t0 )) s)"
timeout 100 python3 scripts/decode_stream_whole63.py --rounds 7 --dims 128 --keys 1024 --heads 32:8 \
  --batches 16 --builds w128s3,w64s3,w64s2,s128 --out "$OUT/b128" 2>&1 | grep -v Warning | grep -v "^check "
timeout 100 python3 scripts/decode_stream_whole63.py --rounds 7 --dims 64 --keys 1024 --heads 32:8 \
  --batches 32 --builds w128s2,w128s3,s128x2,b30 --out "$OUT/b64" 2>&1 | grep -v Warning | grep -v "^check "
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
