#!/bin/bash
# Session 59 call 1: the state session 58 left (its split decode builds; only decode binaries changed there):
# precompile, the whole test_gpu.py (not run in session 58), then where the API stands on serving shapes
# (peer_sweep --set wide3; last read in session 54, before sessions 55-58's decode work).
#   bash scripts/session59_run1.sh   (carry [".whl"]; writes under $OUT; about 9 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
whole_gpu_tests
left=$(( 560 - ($(date +%s) - t0) ))
echo "== wide3 sweep, budget $(( left - 30 )) s"
timeout $left python3 scripts/peer_sweep.py --out "$OUT/wide3" --set wide3 --precompile 15 --rounds 7 \
  --budget-s $(( left - 30 )) 2>&1 | grep -E "^D=|cells"
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
