#!/bin/bash
# Session 55 call 5 (the final source): an experiment for the next session (decode_mha55.py: batch-heavy MHA decode on
# the swap kernel with groups of one), eager host time again, then the whole test_gpu.py after a precompile.
#   bash scripts/session55_run5.sh   (carry [".whl"]; writes under $OUT; about 6 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== MHA decode experiment ($(( $(date +%s) - t0 )) s)"
timeout 100 python3 scripts/decode_mha55.py --rounds 7 2>&1 | tail -12
echo "== eager host time ($(( $(date +%s) - t0 )) s)"
timeout 90 python3 scripts/decode_host_time.py 2>&1 | tail -5
echo "== precompile ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 scripts/precompile.py --jobs 16 2>&1 | tail -1
timeout 150 python3 -m pytest -q -m gpu -n 6 --dist loadgroup tests/test_gpu.py -o cache_dir=build/pcb -rf \
  > "$OUT/gpu_tests.log" 2>&1
echo "test_gpu rc $? ($(( $(date +%s) - t0 )) s)"; grep -E "passed|failed" "$OUT/gpu_tests.log" | tail -2
grep "^FAILED" "$OUT/gpu_tests.log" | head -20
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
