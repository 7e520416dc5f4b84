#!/bin/bash
# Session 61 calls 10-11: counters on the stream build (call 9's run stopped at "11 profiled launches do not split into 10
# calls": the API made its offsets, an arange, on the stream build's second call; now never), D=128 and D=64, and dudect.
#   bash scripts/session61_run10.sh   (carry [".whl"]; writes under $OUT; about 3 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
counters_and_leak 17,32,1,128,2049,8:6 17,32,1,64,2049,8:5
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
