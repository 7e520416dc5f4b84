#!/bin/bash
# Session 33 run 11: what the page gather costs (scripts/paged_gather_bench.py).
#   bash scripts/session33_run11.sh   (device tool; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 300 python3 scripts/paged_gather_bench.py --rounds ${ROUNDS:-7} --out "$OUT" 2>&1 | tail -8
echo "elapsed $(( $(date +%s) - t0 )) s"
