#!/bin/bash
# Session 65 call 12: test_gpu.py after its decode tests' shared set-up moved into _one_query_decode_call / _per_dim
# (no kernel or rule change): the decode GPU tests and the split-key tests (test_few_program_grids_split_the_keys_across_programs) that use _per_dim.
#   bash scripts/session65_run12.sh   (carry [".whl"]; writes under $OUT; about 1.5 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
decode_tests
echo "== test_gpu -k split_the_keys_across_programs ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 -m pytest -q -m gpu -n 8 tests/test_gpu.py -k "split_the_keys_across_programs" -o cache_dir=build/pcb -rf \
  > "$OUT/split_tests.log" 2>&1
echo "rc $?"; grep -E "passed|failed" "$OUT/split_tests.log" | tail -1; grep "^FAILED" "$OUT/split_tests.log" | head
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
