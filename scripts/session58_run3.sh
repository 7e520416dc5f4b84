#!/bin/bash
# Session 58 call 3: decode_split_ab58.py (the split merge with / without the cooperative attribute, with a poll
# backoff, 8 slices; the one-program merge with / without the attribute; cuDNN) and the stamps of the split build.
#   bash scripts/session58_run3.sh   (carry [".whl"]; writes under $OUT; about 3 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== decode_split_ab58 ($(( $(date +%s) - t0 )) s)"
timeout 300 python3 scripts/decode_split_ab58.py --rounds 9 2>&1 | grep -v "^$" | tail -40
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
