#!/bin/bash
# Session 46 call 5: variants.FEW_ROWS_FILL (the 128-row build for D=64 non-causal calls of at most 1,024 queries in
# the short tiles' key band, where the wave model prefers it: call 4 found (1,32,512,4096) at 49.0 us against cuDNN's
# 43.6) through the API against the API without it, and D=128 one-query calls of many sequences beside the 64-row
# builds (call 4: (128,8,1,512) 95.2 against cuDNN's 91.6).
#   bash scripts/session46_run5.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 150 python3 scripts/precompile.py --jobs 16 --match d64 --match full 2>&1 | tail -1
timeout 150 python3 scripts/precompile.py --jobs 16 --match d128 --match full 2>&1 | tail -1
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 240 python3 scripts/rule_check.py --out "$OUT" --rounds 11 --set fewrows
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
