#!/bin/bash
# Session 64 call 10: the PAIR_UNITS schedule at 2 x the SMs' programs past the spread rule's 8 x the SMs' pairs (D=128,
# 1,100-1,584 pairs at 1,024-2,048 keys; (330,32,4,1,1024,128) read x0.967 of cuDNN on the forward kernels in session
# 63), against the API (the forward kernels, or k pairs a program at 1,200 / 1,440 / 1,584 pairs) and cuDNN.
#   bash scripts/session64_run10.sh   (carry [".whl"]; writes under $OUT; about 1 minute)
source "$(dirname "$0")/device_prelude.sh"
{
echo "== D=128 32:4 ($(( $(date +%s) - t0 )) s)"
timeout 120 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 128 --keys 1024,2048 --heads 32:4 \
  --batches 275,280,330 --builds u20 --out "$OUT/d128" 2>&1 | grep -v Warning | grep -v "^check "
echo "== D=128 32:8 ($(( $(date +%s) - t0 )) s)"
timeout 120 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 128 --keys 1024,2048 --heads 32:8 \
  --batches 150,165,180,198 --builds u20 --out "$OUT/d128g4" 2>&1 | grep -v Warning | grep -v "^check"
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
