#!/bin/bash
# Session 52 call 3: the exchange by loads from each rank's shared memory (sm90_fwd CLP_LOADS, opened through the
# cluster barrier): compute-sanitizer memcheck / synccheck on one direct launch per cluster size, full grids in four
# processes at once, call 40 (float64 checks, bitwise repeats, timing against call 1's bulk copies and the tree),
# rule_check --set pull51 (the API with the exchange against it); then, only if memcheck and the grids were clean, the
# exchange on by default (CL_PULL_DEFAULT, in this call's copy of the tree): the whole test_gpu.py and memcheck /
# synccheck over sanitize_clusters.py.
#   bash scripts/session52_run3.sh   (carry [".whl"]; writes under $OUT)
# (Ran at 845628d: x16p@copies needs that commit's sm90_fwd switches, removed in 39849c4.)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
clean=1
for job in "x16p" "x16p 1 32 4 1 4101 64" "o8p 1 32 8 1 3001 128" "q4p 4 32 1 1 2047 64"; do
  for tool in memcheck synccheck; do
    echo "== $tool $job ($(( $(date +%s) - t0 )) s)"
    timeout 100 compute-sanitizer --tool $tool --print-limit 3 python3 scripts/pull_one.py $job > /tmp/san.log 2>&1
    grep -v "Host Frame" /tmp/san.log | grep -v "^=========\s*$" | head -12 | tail -8
    grep -q "ERROR SUMMARY: 0 errors" /tmp/san.log || clean=0
  done
done
for n in x16p; do
  echo "== full grid, four processes: $n ($(( $(date +%s) - t0 )) s)"
  for d in 64 128 64 128; do timeout 90 python3 scripts/pull_grid.py $n $d > /tmp/grid$d.$RANDOM.log 2>&1 & done; wait
  cat /tmp/grid*.log; grep -L " OK " /tmp/grid*.log | grep -q . && clean=0
done
echo "== call 40 ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 scripts/cluster_tree_ab.py --out "$OUT/c40" --call 40 --rounds 9 --precompile 16 2>&1 | tail -12
echo "== rule_check pull51 ($(( $(date +%s) - t0 )) s)"
timeout 100 python3 scripts/rule_check.py --set pull51 --out "$OUT/rc" 2>&1 | tail -12
echo "clean=$clean ($(( $(date +%s) - t0 )) s)"
if [ $clean = 1 ]; then
  sed -i 's/^CL_PULL_DEFAULT = False$/CL_PULL_DEFAULT = True/' src/dhpfa/kernels/sm90_fwd.py
  grep -n "^CL_PULL_DEFAULT" src/dhpfa/kernels/sm90_fwd.py
  timeout 200 python3 scripts/precompile.py --jobs 16 2>&1 | tail -1
  echo "precompile ($(( $(date +%s) - t0 )) s)"
  timeout 130 python3 -m pytest -q -m gpu -n 6 --dist loadgroup tests/test_gpu.py -o cache_dir=build/pcb -rf \
    > "$OUT/gpu_tests.log" 2>&1
  echo "test_gpu rc $? ($(( $(date +%s) - t0 )) s)"; grep -E "passed|failed" "$OUT/gpu_tests.log" | tail -2
  grep "^FAILED" "$OUT/gpu_tests.log" | head -20
  for tool in memcheck synccheck; do
    echo "== $tool sanitize_clusters ($(( $(date +%s) - t0 )) s)"
    timeout 60 compute-sanitizer --tool $tool --kernel-name kns=attn_fwd python3 scripts/sanitize_clusters.py 2>&1 | tail -2
  done
fi
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
