#!/bin/bash
# Session 69 call 7: the whole test_gpu.py on the final source (not run since session 67; sessions 68-69 changed the
# stream kernel's source and the decode rules).
#   bash scripts/session69_run7.sh   (carry [".whl"]; writes under $OUT; about 7 minutes)
source "$(dirname "$0")/device_prelude.sh"
{
whole_gpu_tests
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
