#!/bin/bash
# Session 45 call 8: causal D=64 calls of few heads where select takes the short tiles: the 192-row build's paired
# units against them (wave_rule_ab.py --causal).
#   bash scripts/session45_run8.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 100 python3 scripts/precompile.py --jobs 16 --match d64 --match bf16 2>&1 | tail -1
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 150 python3 scripts/wave_rule_ab.py --out "$OUT" --rounds 9 --causal
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
