#!/bin/bash
# Session 62 call 8: the stream build's longer last waves from 4,096 keys at D=128 (variants.SWAP_DECODE_STREAM_LONG):
# the decode GPU tests (184 pairs at 4,097 keys on the stream build, at 4,095 not).
#   bash scripts/session62_run8.sh   (carry [".whl"]; writes under $OUT; about 1 minute)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
decode_tests
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
