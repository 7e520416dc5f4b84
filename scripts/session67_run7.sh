#!/bin/bash
# Session 67 call 7: the whole test_gpu.py on the final source (the KV-cache builds, the merged NQ = 16 build).
#   bash scripts/session67_run7.sh   (carry [".whl"]; writes under $OUT; about 5 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
whole_gpu_tests
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
