#!/bin/bash
# Session 53 call 1: the exchange across two / four clusters of sixteen (x32p / x64p: sm90_fwd _clp_global) against
# the tree (x32 / x64): call 42 of cluster_tree_ab.py (float64 checks, bitwise repeats, timing in graph replay);
# memcheck / synccheck on direct launches; full grids in four processes; the split-rule / cluster GPU tests.
#   bash scripts/session53_run1.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== call 42 ($(( $(date +%s) - t0 )) s)"
timeout 280 python3 scripts/cluster_tree_ab.py --out "$OUT/c42" --call 42 --rounds 9 --precompile 16 2>&1 | tail -14
for job in "x32p 1 1 1 32 16387 128" "x64p 1 1 1 7 40001 64" "x32p 2 1 1 65 9001 64"; do
  for tool in memcheck synccheck; do
    echo "== $tool $job ($(( $(date +%s) - t0 )) s)"
    timeout 100 compute-sanitizer --tool $tool --print-limit 3 python3 scripts/pull_one.py $job > /tmp/san.log 2>&1
    grep -v "Host Frame" /tmp/san.log | grep -v "^=========\s*$" | head -12 | tail -4
  done
done
echo "== full grid, four processes: x32p ($(( $(date +%s) - t0 )) s)"
for d in 64 128 64 128; do timeout 120 python3 scripts/pull_grid.py x32p $d 2 & done; wait
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
