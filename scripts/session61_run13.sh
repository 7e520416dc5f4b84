#!/bin/bash
# Session 61 call 13: decode_stream_stamps61.py (where the stream kernel's fixed cost goes: its STAMP build against the
# one-part merged kernel's).
#   bash scripts/session61_run13.sh   (carry [".whl"]; writes under $OUT; about 1 minute)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== decode_stream_stamps61 ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 scripts/decode_stream_stamps61.py --launches 30 2>&1 | grep -v Warning
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
