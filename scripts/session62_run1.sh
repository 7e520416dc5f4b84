#!/bin/bash
# Session 62 call 1: the stream kernel's TAIL build as the shipped default: the decode GPU tests (the stream launcher's
# float64 tests now also check its bits against session 61's first form), memcheck / synccheck / racecheck over API
# calls it takes, counters and dudect at (17,32,1,D,2049,8) (136 pairs); then decode_stream_wide62.py (the stream
# build against the API past one wave, 140-520 pairs).
#   bash scripts/session62_run1.sh   (carry [".whl"]; writes under $OUT; about 8 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
decode_tests
sanitize_decode 120 4 " (stream TAIL)" --cases "17,32,8,2049,128;34,32,4,8193,64;35,8,4,1025,128"
racecheck_decode 150 4 62 "17,32,8,1025,128;17,32,8,2049,64"
counters_and_leak 17,32,1,128,2049,8:6 17,32,1,64,2049,8:5
echo "== decode_stream_wide62 ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 scripts/decode_stream_wide62.py --rounds 5 --out "$OUT" 2>&1 | grep -v Warning
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
