#!/bin/bash
# Session 32 run 1 (and 2): programmatic dependent launch (dispatch.PDL 0 / 1 / 2) on the dense kernels: chained calls against float64 and
# bitwise against the same chains without PDL (eager and in one graph), then the API with / without PDL beside cuDNN
# and FA2 in graph replay (scripts/pdl_ab.py).
# Ran at ca. ea0c331 + docs/experiments/session32_pdl.diff (the kernel change, not shipped: apply it first).
#   bash scripts/session32_run1.sh   (device tool; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 520 python3 scripts/pdl_ab.py --out "$OUT" --rounds 15 2>&1 | grep -v "^\s*$" | tee "$OUT/pdl_ab.txt"
echo "elapsed $(( $(date +%s) - t0 )) s"
