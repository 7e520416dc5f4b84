#!/bin/bash
# Session 30 run 6: the final rule's varlen GPU tests (test_varlen under pytest-xdist, after the smoke check), then the
# launch floor of small calls in graphs of 1, 4 and 16 calls (issue 5's (1,8,512,64) goal: how much of the bench's
# one-call graphs is the graph launch).
#   bash scripts/session30_run6.sh   (device tool: carry [".whl"]; writes under $OUT)
. "$(dirname "$0")/device_prelude.sh"
timeout 120 python3 scripts/varlen_sm90_smoke.py > "$OUT/smoke.log" 2>&1; echo "smoke rc $?"; grep -c OK "$OUT/smoke.log"
timeout 100 python3 scripts/precompile.py --jobs 16 --match varlen 2>&1 | tail -1
timeout 220 python3 -m pytest -q -m gpu -n 8 tests/test_varlen.py -o cache_dir=/tmp/pc -rf > "$OUT/varlen_tests.log" 2>&1
echo "varlen tests rc $? $(( $(date +%s) - t0 )) s"; tail -4 "$OUT/varlen_tests.log"
timeout 120 python3 scripts/launch_floor.py --out "$OUT" --calls-per-graph 1,4,16 2>&1 | tail -15
echo "total $(( $(date +%s) - t0 )) s"
