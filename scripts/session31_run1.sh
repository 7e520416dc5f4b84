#!/bin/bash
# Session 31 run 1: local windows and soft-capping on the Hopper varlen kernel. Precompile the varlen builds, the new
# GPU tests and the Hopper varlen tests (pytest-xdist), then the window / soft-cap bench.
#   bash scripts/session31_run1.sh   (device tool: carry [".whl"]; writes under $OUT)
. "$(dirname "$0")/device_prelude.sh"
timeout 150 python3 scripts/precompile.py --jobs 16 --match sm90_varlen 2>&1 | tail -1
timeout 240 python3 -m pytest -q -m gpu -n 8 tests/test_varlen.py -k "sm90" -o cache_dir=/tmp/pc -rf \
    > "$OUT/sm90_varlen_tests.log" 2>&1
echo "sm90 varlen tests rc $? $(( $(date +%s) - t0 )) s"; tail -15 "$OUT/sm90_varlen_tests.log"
timeout 300 python3 scripts/window_bench.py --out "$OUT/window" --rounds 5 2>&1 | tail -14
echo "done $(( $(date +%s) - t0 )) s"
