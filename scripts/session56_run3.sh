#!/bin/bash
# Session 56 call 3: the tree with the merge in rounds (D=64 merged too, two pairs at D=128 in 32 parts): precompile,
# the whole test_gpu.py, rule_check --set s56 (the API against session 56's start).
#   bash scripts/session56_run3.sh   (carry [".whl"]; writes under $OUT; about 6 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== precompile ($(( $(date +%s) - t0 )) s)"
timeout 220 python3 scripts/precompile.py --jobs 16 2>&1 | tail -1
timeout 170 python3 -m pytest -q -m gpu -n 6 --dist loadgroup tests/test_gpu.py -o cache_dir=build/pcb -rf \
  > "$OUT/gpu_tests.log" 2>&1
echo "test_gpu rc $? ($(( $(date +%s) - t0 )) s)"; grep -E "passed|failed" "$OUT/gpu_tests.log" | tail -2
grep "^FAILED" "$OUT/gpu_tests.log" | head -20
echo "== rule_check s56 ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 scripts/rule_check.py --out "$OUT/rc" --set s56 --rounds 7 2>&1 | grep -v "^$" | tail -14
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
