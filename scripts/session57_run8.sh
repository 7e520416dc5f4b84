#!/bin/bash
# Session 57 call 8: the final tree: precompile, the whole test_gpu.py.
#   bash scripts/session57_run8.sh   (carry [".whl"]; writes under $OUT; about 5 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
whole_gpu_tests
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
