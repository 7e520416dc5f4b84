#!/bin/bash
# Session 33 run 2: dudect on paged varlen calls with the block-table prefetch shipped (scripts/paged_leak.py).
#   bash scripts/session33_run2.sh   (device tool; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 200 python3 scripts/paged_leak.py --samples ${SAMPLES:-1500} --out "$OUT" 2>&1 | tail -40
echo "elapsed $(( $(date +%s) - t0 )) s"
