#!/bin/bash
# Session 36 call 17: evidence on the final combine binaries (4 parts: the 4-part tiles): dudect on planned decode steps
# and counters of one (D=128 contiguous, L2 flushed after each copy).
#   bash scripts/session36_run17.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 100 python3 scripts/varlen_counters.py --d 128 --kvcache contiguous --flush-l2 --out "$OUT/counters" 2>&1 | tail -3
timeout 120 python3 scripts/kvcache_leak.py --samples 600 --out "$OUT" 2>&1 | grep -A3 "^dudect" | grep -E "dudect|dhpfa"
echo "elapsed $(( $(date +%s) - t0 )) s"
