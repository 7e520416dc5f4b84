#!/bin/bash
# Session 66 call 10: the decode GPU tests after call 9's fixes (the stream test's whole / NQ checks only on stream
# plans; the API's decode route as variants.decode_choice, which builds no decode variant at head dims without one).
#   bash scripts/session66_run10.sh   (carry [".whl"]; writes under $OUT; about 1.5 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
decode_tests
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
