#!/bin/bash
# Session 63 call 7: k whole pairs a program at D=64 (not in the rule: the forward kernels run 300-800 pairs there)
# and at D=128 past 2,048 keys (the rule stops there), decode_stream_whole63.py.
#   bash scripts/session63_run7.sh   (carry [".whl"]; writes under $OUT; about 3 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== decode_stream_whole63 D=64 k pairs a program ($(( $(date +%s) - t0 )) s)"
timeout 100 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 64 --keys 1024,2048,4096 \
  --batches 75,100,150,166,200 --builds k2,k3,k4 --out "$OUT/k64" 2>&1 | grep -v Warning | grep -v "^check"
echo "== decode_stream_whole63 D=128 k pairs a program at 4,096 keys ($(( $(date +%s) - t0 )) s)"
timeout 60 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 128 --keys 4096 \
  --batches 100,150,200 --builds k2,k3,k4 --out "$OUT/k128" 2>&1 | grep -v Warning | grep -v "^check"
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
