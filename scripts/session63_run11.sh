#!/bin/bash
# Session 63 call 11: k whole pairs a program past the rule's 4,096 keys (8,192 and 16,384), D=128 and D=64, against the
# API (the stream build or the forward kernels there) and cuDNN: does SWAP_DECODE_WHOLE_K's key bound move?
#   bash scripts/session63_run11.sh   (carry [".whl"]; writes under $OUT; about 1 minute)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
timeout 80 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 128 --keys 8192,16384 --batches 100,150,166,200 \
  --builds k2,k3,k4 --out "$OUT/k128" 2>&1 | grep -v Warning | grep -v "^check"
timeout 80 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 64 --keys 8192,16384 --batches 100,150,166,200 \
  --builds k2,k3,k4 --out "$OUT/k64" 2>&1 | grep -v Warning | grep -v "^check"
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
