#!/bin/bash
# Session 61 call 12: the decode GPU tests on the submitted tree (after the tests' shared checks, _check_one_query_call).
#   bash scripts/session61_run12.sh   (carry [".whl"]; writes under $OUT; about 1.5 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
decode_tests
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
