#!/bin/bash
# Session 35 call 9: where a rotary decode step's extra GPU time goes (scripts/rotary_cost.py).
#   bash scripts/session35_run9.sh   (writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 300 python3 scripts/rotary_cost.py 2>&1 | tail -8
echo "elapsed $(( $(date +%s) - t0 )) s"
