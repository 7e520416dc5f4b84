#!/bin/bash
# Session 51 call 4: where call 3's memcheck errors and full-grid failures come from: memcheck over sanitize_clusters.py
# case by case (the first errors in full), and the full-grid GPU tests of the cluster builds with their first failure.
#   bash scripts/session51_run4.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
timeout 150 python3 -m pytest -q -m gpu -n 6 --dist loadgroup tests/test_gpu.py -o cache_dir=build/pcb -rf --maxfail=4 \
  -k "full_grid and (cl16 or cl8 or cl4) and bf16" > "$OUT/gpu_full.log" 2>&1
echo "test_gpu rc $? $(( $(date +%s) - t0 )) s"; grep -E "passed|failed" "$OUT/gpu_full.log" | tail -2
grep -E "^FAILED|^E " "$OUT/gpu_full.log" | head -30 | cut -c1-400
timeout 150 compute-sanitizer --tool memcheck --print-limit 4 --kernel-name kns=attn_fwd python3 scripts/sanitize_clusters.py \
  > "$OUT/memcheck.log" 2>&1
grep -n -m1 -B3 "=====" "$OUT/memcheck.log"; grep -v "^=========     Host Frame" "$OUT/memcheck.log" | head -70 | cut -c1-300
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
