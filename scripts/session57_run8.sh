#!/bin/bash
# Session 57 call 8: the final tree: precompile, the whole test_gpu.py.
#   bash scripts/session57_run8.sh   (carry [".whl"]; writes under $OUT; about 5 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== precompile ($(( $(date +%s) - t0 )) s)"
timeout 230 python3 scripts/precompile.py --jobs 16 2>&1 | tail -1
timeout 200 python3 -m pytest -q -m gpu -n 6 --dist loadgroup tests/test_gpu.py -o cache_dir=build/pcb -rf \
  > "$OUT/gpu_tests.log" 2>&1
echo "test_gpu rc $? ($(( $(date +%s) - t0 )) s)"; grep -E "passed|failed" "$OUT/gpu_tests.log" | tail -2
grep "^FAILED" "$OUT/gpu_tests.log" | head -20
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
