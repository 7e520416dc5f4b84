#!/bin/bash
# Session 35 call 8: hardware counters (ncu --clock-control none; 5 classes, 5 repeats of one input) of planned
# flash_attn_with_kvcache decode steps: kvcache_append + the varlen kernel (+ combine), contiguous, paged, rotary.
#   bash scripts/session35_run8.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
for args in "--d 128 --kvcache contiguous" "--d 128 --kvcache paged" "--d 64 --kvcache contiguous --decode"; do
  echo "== $args"
  timeout 170 python3 scripts/varlen_counters.py $args --out "$OUT/counters" 2>&1 | tail -16
done
echo "elapsed $(( $(date +%s) - t0 )) s"
