#!/bin/bash
# Session 45 call 11: non-causal D=64 of few heads past SHORT_SEQ_K keys (8,192 / 16,384): the 192-row build against
# the short tiles (wave_rule_ab.py --long), whether the fill rule holds past its range.
#   bash scripts/session45_run11.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 100 python3 scripts/precompile.py --jobs 16 --match d64 --match bf16 2>&1 | tail -1
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 120 python3 scripts/wave_rule_ab.py --out "$OUT" --rounds 7 --long
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
