#!/bin/bash
# Session 66 call 5: the two forward-kernel routing tests that used one-query MHA calls (now with
# SWAP_DECODE_MIN_GROUP = 2 inside them), and the GPU tests of the other test files (forward, varlen, tuner, measure,
# envelope) on the final rule: MHA decode as a group of one may reach calls they make.
#   bash scripts/session66_run5.sh   (carry [".whl"]; writes under $OUT; about 5 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== test_gpu -k split/tile_per_head ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 -m pytest -q -m gpu -n 8 tests/test_gpu.py -k "split_the_keys_across_programs or tile_per_head_on_many" \
  -o cache_dir=build/pcb -rf > "$OUT/fixed_tests.log" 2>&1
echo "rc $?"; grep -E "passed|failed" "$OUT/fixed_tests.log" | tail -1; grep "^FAILED" "$OUT/fixed_tests.log" | head
echo "== the other GPU test files ($(( $(date +%s) - t0 )) s)"
timeout 330 python3 -m pytest -q -m gpu -n 8 tests/test_sm90_fwd.py tests/test_varlen.py tests/test_tune.py \
  tests/test_measure.py tests/test_envelope.py -o cache_dir=build/pcb -rf > "$OUT/other_tests.log" 2>&1
echo "rc $?"; grep -E "passed|failed" "$OUT/other_tests.log" | tail -1; grep "^FAILED" "$OUT/other_tests.log" | head -20
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
