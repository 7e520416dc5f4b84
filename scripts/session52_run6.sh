#!/bin/bash
# Session 52 call 6: the exchange after the cleanup (one form: cluster barrier, loads merged as they arrive, one round
# of loads instead of two): memcheck / synccheck on direct launches of 16 CTAs at D=128 / 64, 8 at D=128, 4 at D=64;
# full grids in four processes; call 40 (float64 checks, bitwise repeats, timing against call 3's two-round form,
# carried as src/dhpfa/kernels/_ab_s52a.py, and the tree); then the whole test_gpu.py (on by default) and memcheck /
# synccheck over sanitize_clusters.py.
#   bash scripts/session52_run6.sh   (carry [".whl", "src/dhpfa/kernels/_ab_s52a.py"]; writes under $OUT)
# (_ab_s52a.py is git-ignored: git show a8cae62:src/dhpfa/kernels/sm90_fwd.py > src/dhpfa/kernels/_ab_s52a.py)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
for job in "x16p" "x16p 1 32 4 1 4101 64" "o8p 1 32 8 1 3001 128" "q4p 4 32 1 1 2047 64"; do
  for tool in memcheck synccheck; do
    echo "== $tool $job ($(( $(date +%s) - t0 )) s)"
    timeout 100 compute-sanitizer --tool $tool --print-limit 3 python3 scripts/pull_one.py $job > /tmp/san.log 2>&1
    grep -v "Host Frame" /tmp/san.log | grep -v "^=========\s*$" | head -12 | tail -4
  done
done
echo "== full grid, four processes: x16p ($(( $(date +%s) - t0 )) s)"
for d in 64 128 64 128; do timeout 90 python3 scripts/pull_grid.py x16p $d & done; wait
echo "== call 40 ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 scripts/cluster_tree_ab.py --out "$OUT/c40" --call 40 --rounds 9 --precompile 16 2>&1 | tail -12
echo "== precompile ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 scripts/precompile.py --jobs 16 2>&1 | tail -1
timeout 130 python3 -m pytest -q -m gpu -n 6 --dist loadgroup tests/test_gpu.py -o cache_dir=build/pcb -rf \
  > "$OUT/gpu_tests.log" 2>&1
echo "test_gpu rc $? ($(( $(date +%s) - t0 )) s)"; grep -E "passed|failed" "$OUT/gpu_tests.log" | tail -2
grep "^FAILED" "$OUT/gpu_tests.log" | head -20
for tool in memcheck synccheck; do
  echo "== $tool sanitize_clusters ($(( $(date +%s) - t0 )) s)"
  timeout 60 compute-sanitizer --tool $tool --kernel-name kns=attn_fwd python3 scripts/sanitize_clusters.py 2>&1 | tail -2
done
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
