#!/bin/bash
# Session 35 call 1: where an eager decode step's host time goes (scripts/kvcache_host.py).
#   bash scripts/session35_run1.sh   (writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 400 python3 scripts/kvcache_host.py --out "$OUT" 2>&1 | tail -20
echo "elapsed $(( $(date +%s) - t0 )) s"
