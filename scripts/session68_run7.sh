#!/bin/bash
# Session 68 call 7 (the last source change: test expectations only since call 6): every GPU test of test_varlen.py
# (the KV-cache routes: the fill, the whole-pair form, the varlen and dense ones) and test_measure.py.
#   bash scripts/session68_run7.sh   (carry [".whl"]; writes under $OUT; about 4 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== test_varlen.py + test_measure.py GPU tests ($(( $(date +%s) - t0 )) s)"
timeout 330 python3 -m pytest -q -m gpu -n 8 tests/test_varlen.py tests/test_measure.py -o cache_dir=build/pcb -rf \
  > "$OUT/varlen_tests.log" 2>&1
echo "rc $? ($(( $(date +%s) - t0 )) s)"; grep -E "passed|failed" "$OUT/varlen_tests.log" | tail -2
grep -E "^FAILED" "$OUT/varlen_tests.log" | head -20
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
