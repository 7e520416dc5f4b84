#!/bin/bash
# Session 46 call 7: causal D=128 at short lengths where select's paired 128-row units leave SMs idle, beside the
# 64-row short tiles and the split-key build (rule_check.py --set causalmid).
#   bash scripts/session46_run7.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 150 python3 scripts/precompile.py --jobs 16 --match d128 --match causal 2>&1 | tail -1
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 200 python3 scripts/rule_check.py --out "$OUT" --rounds 11 --set causalmid
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
