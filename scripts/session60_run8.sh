#!/bin/bash
# Session 60, call 8: the shipped state's decode sweeps: peer_sweep.py --set steps (88 cells on, just past and between
# powers of two) and --set wide3 (46 serving cells).
#   bash scripts/session60_run8.sh   (carry [".whl"]; writes under $OUT; about 2.5 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== steps sweep ($(( $(date +%s) - t0 )) s)"
timeout 100 python3 scripts/peer_sweep.py --set steps --rounds 7 --precompile 12 --out "$OUT/steps" 2>&1 | grep -v Warning
echo "== wide3 sweep ($(( $(date +%s) - t0 )) s)"
timeout 120 python3 scripts/peer_sweep.py --out "$OUT/wide3" --set wide3 --precompile 15 --rounds 7 \
  --budget-s 80 2>&1 | grep -E "^D=|cells"
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
