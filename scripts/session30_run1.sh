#!/bin/bash
# Session 30 run 1: the Hopper varlen kernel (attn_fwd_sm90_varlen). A smoke check against the portable varlen kernel
# (stops the run if it fails), the varlen GPU tests under pytest-xdist, then the varlen bench's grid (mixed, short and
# uniform lengths, D=64/128/256; the API, the portable kernel, FA2's varlen, padded dense calls) and its dudect test.
#   bash scripts/session30_run1.sh   (device tool: carry [".whl"]; writes under $OUT)
. "$(dirname "$0")/device_prelude.sh"
timeout 120 python3 scripts/varlen_sm90_smoke.py > "$OUT/smoke.log" 2>&1; rc=$?
tail -14 "$OUT/smoke.log"; [ $rc = 0 ] || { echo "smoke failed: rc $rc"; exit 1; }
echo "smoke $(( $(date +%s) - t0 )) s"
timeout ${PRECOMPILE_LIMIT:-100} python3 scripts/precompile.py --jobs 16 --match varlen 2>&1 | tail -1
echo "precompile $(( $(date +%s) - t0 )) s"
timeout ${TESTS_LIMIT:-200} python3 -m pytest -q -m gpu -n 8 tests/test_varlen.py -o cache_dir=/tmp/pc -rf \
    > "$OUT/varlen_tests.log" 2>&1
echo "varlen tests rc $? $(( $(date +%s) - t0 )) s"; tail -8 "$OUT/varlen_tests.log"
timeout ${BENCH_LIMIT:-200} python3 scripts/varlen_bench.py --out "$OUT" --parts grid --dims 64,128,256 --rounds 5 \
    --leak-samples 1000 --leaks mixed 2>&1 | tail -24
echo "total $(( $(date +%s) - t0 )) s"
