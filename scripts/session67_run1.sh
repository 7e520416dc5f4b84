#!/bin/bash
# Prepared at the end of session 66 for the next session's first device call (not run): what session 66 could not run
# after its last change (groups of 9-16 on the NQ = 16 builds) for want of device time: the whole test_gpu.py, and
# counters / dudect at a group-16 cell on each NQ = 16 kernel (split: 4 pairs x 16 parts; whole pairs: 160).
#   bash scripts/session67_run1.sh   (carry [".whl"]; writes under $OUT; about 6 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
whole_gpu_tests
counters_and_leak 1,64,1,128,16385,4:5 40,64,1,64,4097,4:5
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
