#!/bin/bash
# Session 51 call 9: the one-exchange meeting opened with a cluster barrier (no ready words): the full-grid tests of its
# builds in four processes (call 6 failed them), memcheck on one MQA call (call 6 flagged it), then call 38's float64
# checks, bitwise repeats and timing.
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
timeout 60 python3 scripts/precompile.py --jobs 16 --match ovcl --match bf16 2>&1 | tail -1
timeout 110 python3 -m pytest -q -m gpu -n 4 tests/test_gpu.py -o cache_dir=build/pcb -rf \
  -k "full_grid and (d64 or d128) and (kv16ovcl16 or kv8ovcl8 or kv4ovcl4) and bf16" > "$OUT/full.log" 2>&1
echo "full-grid rc $? $(( $(date +%s) - t0 )) s"; tail -2 "$OUT/full.log" | cut -c1-200
timeout 50 compute-sanitizer --tool memcheck --print-limit 2 python3 scripts/pull_one.py 2>&1 | grep -v "Host Frame" | tail -4
timeout 50 compute-sanitizer --tool synccheck python3 scripts/pull_one.py 2>&1 | tail -2
timeout 120 python3 scripts/cluster_tree_ab.py --out "$OUT/c38" --call 38 --rounds 7 --precompile 16 2>&1
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
