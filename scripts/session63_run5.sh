#!/bin/bash
# Session 63 call 5: the whole test_gpu.py (precompile first) on the final whole-pair rule; memcheck / synccheck over
# API calls of 128-700 keys on it; then decode_stream_whole63.py with k whole pairs a program (pairs / k programs,
# three an SM) at 400-800 pairs, where the stream build runs now.
#   bash scripts/session63_run5.sh   (carry [".whl"]; writes under $OUT; about 9 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
whole_gpu_tests
sanitize_decode 50 3 " (whole, short)" --cases "34,32,4,129,128;75,16,4,700,128;50,32,4,512,64"
echo "== decode_stream_whole63 k pairs a program ($(( $(date +%s) - t0 )) s)"
timeout 70 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 128 --keys 1024,2048 \
  --batches 100,134,150,166,200 --builds s128,k2,k3,k4 --out "$OUT/k128" 2>&1 | grep -v Warning | grep -v "^check"
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
