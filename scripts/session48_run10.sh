#!/bin/bash
# Session 48 call 10: on the session's final kernels and rules (clusters of four, rows-only meetings, FEW_ROWS_SPLIT_KV):
# every audited variant precompiled, then the whole of test_gpu.py.
#   bash scripts/session48_run10.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
timeout 260 python3 scripts/precompile.py --jobs 16 2>&1 | tail -1
echo "precompile $(( $(date +%s) - t0 )) s"
timeout 300 python3 -m pytest -q -m gpu -n 6 --dist loadgroup tests/test_gpu.py -o cache_dir=build/pcb -rf \
  > "$OUT/gpu_tests_all.log" 2>&1
echo "test_gpu rc $? $(( $(date +%s) - t0 )) s"; grep -E "passed|failed" "$OUT/gpu_tests_all.log" | tail -2
grep "^FAILED" "$OUT/gpu_tests_all.log" | head -20
} 2>&1 | tee "$OUT/run.log"
