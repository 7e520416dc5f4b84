#!/bin/bash
# Session 33 run 3: the Hopper varlen rule's crossover for paged and contiguous prefill chunks (scripts/paged_rule_sweep.py).
#   bash scripts/session33_run3.sh   (device tool; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 400 python3 scripts/paged_rule_sweep.py --rounds ${ROUNDS:-7} --out "$OUT" 2>&1 | tail -40
echo "elapsed $(( $(date +%s) - t0 )) s"
