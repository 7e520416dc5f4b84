#!/bin/bash
# Session 60, call 6: session 59's decode binary (equal parts) against this session's one binary at both part forms
# (decode_even60.py --binary; needs session 59's sm90_decode.py as the untracked src/dhpfa/kernels/_ab_s59decode.py:
# git show cb1e6d5:src/dhpfa/kernels/sm90_decode.py).
#   bash scripts/session60_run6.sh   (carry [".whl"]; writes under $OUT; about 1 minute)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== binaries ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 scripts/decode_even60.py --binary --rounds 11 2>&1 | grep -v Warning
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
