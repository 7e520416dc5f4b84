#!/bin/bash
# Session 56 call 6: two pairs at D=64 in 64 parts on the swap kernel and the combine (variants.SWAP_DECODE_TWO_PAIRS[64],
# one cell timed in call 2): rule_check --set s56b against the forward kernels, then the GPU test's two-pair cases.
#   bash scripts/session56_run6.sh   (carry [".whl"]; writes under $OUT; about 2.5 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
timeout 80 python3 scripts/rule_check.py --out "$OUT/rc" --set s56b --rounds 5 2>&1 | grep -v "^$" | tail -6
timeout 90 python3 -m pytest -q -m gpu -n 8 tests/test_gpu.py -k "swapped_gemm and 65537" -o cache_dir=build/pcb -rf \
  > "$OUT/tests.log" 2>&1
echo "tests rc $? ($(( $(date +%s) - t0 )) s)"; grep -E "passed|failed" "$OUT/tests.log" | tail -2
grep -E "^FAILED" "$OUT/tests.log" | head
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
