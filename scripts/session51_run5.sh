#!/bin/bash
# Session 51 call 5: call 4's failure located: the sanitizer's cases one by one (CUDA_LAUNCH_BLOCKING) against float64,
# then one full-grid test of a cluster build with its error.
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
CUDA_LAUNCH_BLOCKING=1 timeout 150 python3 scripts/pull_diag.py 2>&1 | grep -v "^  File\|^    " | tail -30
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 120 python3 -m pytest -q -m gpu tests/test_gpu.py -o cache_dir=build/pcb -x \
  -k "full_grid and bf16-d128-full-m64n128w4s2kv8ovcl8" 2>&1 | grep -E "^E |passed|failed" | head -12 | cut -c1-300
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
