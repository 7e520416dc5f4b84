#!/bin/bash
# Session 59 call 5: the final rule: precompile, the whole test_gpu.py, memcheck / synccheck over API decode calls the
# new thresholds send to the swap kernel, the wide3 sweep again.
#   bash scripts/session59_run5.sh   (carry [".whl"]; writes under $OUT; about 7 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
whole_gpu_tests
sanitize_decode 50 6 ", session 59's thresholds" --seed 59 \
  --cases "4,32,8,1029,64;2,32,8,1025,128;1,32,8,2049,64;4,32,8,515,128;1,32,4,1030,128"
echo "== wide3 sweep ($(( $(date +%s) - t0 )) s)"
timeout 100 python3 scripts/peer_sweep.py --out "$OUT/wide3" --set wide3 --precompile 15 --rounds 7 \
  --budget-s 80 2>&1 | grep -E "^D=|cells"
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
