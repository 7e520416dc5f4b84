#!/bin/bash
# Session 62 call 6: decode_stream_blocks62.py (the stream kernel with 64-key blocks at D=128: one program an SM with 6
# stages, two with 3; float64 checks, then against the shipped 128-key build, the API and cuDNN).
#   bash scripts/session62_run6.sh   (carry [".whl"]; writes under $OUT; about 3 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== decode_stream_blocks62 ($(( $(date +%s) - t0 )) s)"
timeout 300 python3 scripts/decode_stream_blocks62.py --rounds 5 --out "$OUT" 2>&1 | grep -v Warning
echo "rc ${PIPESTATUS[0]} elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
