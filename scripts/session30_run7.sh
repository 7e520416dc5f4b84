#!/bin/bash
# Session 30 run 7: varlen calls past 32-bit element offsets on the Hopper varlen kernel (test_gpu_sm90_varlen_wide,
# alone first), then the varlen GPU file under pytest-xdist on the final source.
#   bash scripts/session30_run7.sh   (device tool: carry [".whl"]; writes under $OUT)
. "$(dirname "$0")/device_prelude.sh"
timeout 150 python3 -m pytest -q -m gpu tests/test_varlen.py -k "sm90_varlen_wide" -o cache_dir=/tmp/pc -rf 2>&1 | tail -4
echo "wide $(( $(date +%s) - t0 )) s"
timeout 100 python3 scripts/precompile.py --jobs 16 --match varlen 2>&1 | tail -1
timeout 220 python3 -m pytest -q -m gpu -n 8 tests/test_varlen.py -o cache_dir=/tmp/pc -rf > "$OUT/varlen_tests.log" 2>&1
echo "varlen tests rc $? $(( $(date +%s) - t0 )) s"; tail -4 "$OUT/varlen_tests.log"
