#!/bin/bash
# Session 53 call 6: the exchange's final form (phases only: no mbarriers, no thread barrier before phase 2): call 44
# (float64 checks of x16p / o8p / q4p / x32p / x64p, bitwise repeats, timing against the mbarrier form, kernels/_ab_s53.py);
# memcheck / synccheck on direct launches and over sanitize_clusters.py; full grids in four processes; last, the whole
# test_gpu.py (cut where the device time runs out).
#   bash scripts/session53_run6.sh   (carry [".whl", "src/dhpfa/kernels/_ab_s53.py"]; writes under $OUT)
# (_ab_s53.py is git-ignored: git show f2e684d:src/dhpfa/kernels/sm90_fwd.py > src/dhpfa/kernels/_ab_s53.py)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== call 44 ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 scripts/cluster_tree_ab.py --out "$OUT/c44" --call 44 --rounds 7 --precompile 16 2>&1 | tail -12
for job in "x16p 1 1 1 32 4101 128" "x64p 1 1 1 7 40001 64" "o8p 1 32 8 1 3001 128" "q4p 4 32 1 1 2047 64"; do
  for tool in memcheck synccheck; do
    echo "== $tool $job ($(( $(date +%s) - t0 )) s)"
    timeout 100 compute-sanitizer --tool $tool --print-limit 3 python3 scripts/pull_one.py $job > /tmp/san.log 2>&1
    grep -v "Host Frame" /tmp/san.log | grep -v "^=========\s*$" | head -12 | tail -3
  done
done
echo "== full grids, four processes: x16p, x32p ($(( $(date +%s) - t0 )) s)"
for c in "x16p 64" "x16p 128" "x32p 64" "x32p 128"; do timeout 120 python3 scripts/pull_grid.py $c 2 & done; wait
for tool in memcheck synccheck; do
  echo "== $tool sanitize_clusters ($(( $(date +%s) - t0 )) s)"
  timeout 80 compute-sanitizer --tool $tool --kernel-name kns=attn_fwd python3 scripts/sanitize_clusters.py 2>&1 | tail -2
done
echo "== precompile ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 scripts/precompile.py --jobs 16 2>&1 | tail -1
timeout 140 python3 -m pytest -q -m gpu -n 6 --dist loadgroup tests/test_gpu.py -o cache_dir=build/pcb -rf \
  > "$OUT/gpu_tests.log" 2>&1
echo "test_gpu rc $? ($(( $(date +%s) - t0 )) s)"; grep -E "passed|failed" "$OUT/gpu_tests.log" | tail -2
grep "^FAILED" "$OUT/gpu_tests.log" | head -20
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
