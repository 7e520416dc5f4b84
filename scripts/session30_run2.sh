#!/bin/bash
# Session 30 run 2: the Hopper varlen kernel with q, k, v on their own bases (session30_dbg: a base before the
# allocation faulted) and O in front-padded storage. The smoke script at every head dim twice, then the new tests, then
# the whole varlen GPU file under pytest-xdist, then memcheck over the smoke.
#   bash scripts/session30_run2.sh   (device tool: carry [".whl"]; writes under $OUT)
. "$(dirname "$0")/device_prelude.sh"
timeout 120 python3 scripts/varlen_sm90_smoke.py --repeat 2 > "$OUT/smoke.log" 2>&1; rc=$?
grep -E '^D=|Error' "$OUT/smoke.log" | tail -12; [ $rc = 0 ] || { echo "smoke failed: rc $rc"; exit 1; }
echo "smoke $(( $(date +%s) - t0 )) s"
timeout 150 python3 -m pytest -q -m gpu -n 8 tests/test_varlen.py -k sm90 -o cache_dir=/tmp/pc -rf > "$OUT/sm90_tests.log" 2>&1
echo "sm90 varlen tests rc $? $(( $(date +%s) - t0 )) s"; tail -6 "$OUT/sm90_tests.log"
timeout ${PRECOMPILE_LIMIT:-100} python3 scripts/precompile.py --jobs 16 --match varlen 2>&1 | tail -1
timeout ${TESTS_LIMIT:-200} python3 -m pytest -q -m gpu -n 8 tests/test_varlen.py -o cache_dir=/tmp/pc -rf \
    > "$OUT/varlen_tests.log" 2>&1
echo "varlen tests rc $? $(( $(date +%s) - t0 )) s"; tail -6 "$OUT/varlen_tests.log"
timeout 100 compute-sanitizer --tool memcheck --kernel-name kns=attn_fwd python3 scripts/varlen_sm90_smoke.py 2>&1 \
    | grep -E 'ERROR SUMMARY|Invalid|^D=' | tail -4
echo "total $(( $(date +%s) - t0 )) s"
