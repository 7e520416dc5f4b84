#!/bin/bash
# Session 50 call 1. (a) Prepared in session 49: clusters of sixteen CTAs (sm90_fwd CLUSTER_N = 16, a non-portable
# cluster size; cluster_launcher sets NON_PORTABLE_CLUSTER_SIZE_ALLOWED on the function): how many are resident
# (cluster_occupancy.py, now with size 16), then float64 checks, bitwise repeats and timing against clusters of eight at
# the same part counts (cluster_tree_ab --call 35). (b) The whole of test_gpu.py on the tree (session 49's last change to
# test_every_shipped_variant_on_a_full_grid was not run on a device), every shipped variant precompiled first.
#   bash scripts/session50_run1.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
timeout 40 python3 scripts/cluster_occupancy.py 2>&1 | tail -8
timeout 170 python3 scripts/cluster_tree_ab.py --out "$OUT/ab35" --call 35 --precompile 14 --rounds 15 2>&1
echo "call 35 done $(( $(date +%s) - t0 )) s"
timeout 220 python3 scripts/precompile.py --jobs 16 2>&1 | tail -1
echo "precompile $(( $(date +%s) - t0 )) s"
timeout 150 python3 -m pytest -q -m gpu -n 6 --dist loadgroup tests/test_gpu.py -o cache_dir=build/pcb -rf \
  > "$OUT/gpu_tests.log" 2>&1
echo "test_gpu rc $? $(( $(date +%s) - t0 )) s"; grep -E "passed|failed" "$OUT/gpu_tests.log" | tail -2
grep "^FAILED" "$OUT/gpu_tests.log" | head -20
} 2>&1 | tee "$OUT/run.log"
