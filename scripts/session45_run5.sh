#!/bin/bash
# Session 45 call 5: D=64 grids of few heads between the short tiles and the three-consumer build (wave_rule_ab.py).
#   bash scripts/session45_run5.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 120 python3 scripts/precompile.py --jobs 16 --match d64 --match bf16 2>&1 | tail -1
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 300 python3 scripts/wave_rule_ab.py --out "$OUT" --rounds 9
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
