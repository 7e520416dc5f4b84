#!/bin/bash
# Session 51 call 6: the full-grid GPU tests of every one-cluster build that meets in one exchange (4 / 8 / 16 parts,
# D = 64 / 128, bf16 / fp16, full / causal) with their failures; memcheck on one MQA call of sixteen parts.
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
timeout 100 python3 scripts/precompile.py --jobs 16 --match ovcl 2>&1 | tail -1
echo "precompile $(( $(date +%s) - t0 )) s"
timeout 200 python3 -m pytest -q -m gpu -n 4 tests/test_gpu.py -o cache_dir=build/pcb -rf \
  -k "full_grid and (d64 or d128) and (kv16ovcl16 or kv8ovcl8 or kv4ovcl4)" > "$OUT/full.log" 2>&1
echo "full-grid rc $? $(( $(date +%s) - t0 )) s"; grep -E "passed|failed" "$OUT/full.log" | tail -2
grep -E "^FAILED|^E  " "$OUT/full.log" | head -24 | cut -c1-300
timeout 60 compute-sanitizer --tool memcheck --print-limit 2 python3 scripts/pull_one.py 2>&1 | grep -v "Host Frame" | head -16
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
