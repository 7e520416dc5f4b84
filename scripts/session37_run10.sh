#!/bin/bash
# Session 37 call 10: evidence on the changed binaries: dudect on the balanced D=128 causal build (32,16,512,128);
# dudect and counters on planned kvcache decode steps at D=256 (the grouped few-row tiles, contiguous and paged).
#   bash scripts/session37_run10.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 200 python3 -m dhpfa leak --shape 32,16,512,128 --causal --samples 1500 2>&1 | tail -6
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 200 python3 scripts/kvcache_leak.py --d 256 --samples 600 --out "$OUT" 2>&1 | grep -A4 "^dudect" | grep -E "dudect|dhpfa"
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 150 python3 scripts/varlen_counters.py --d 256 --kvcache contiguous --flush-l2 --out "$OUT/counters" 2>&1 | tail -4
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
