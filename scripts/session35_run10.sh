#!/bin/bash
# Session 35 call 10: call 8's counters of planned decode steps again with an L2 flush (256 MB of zeros) after each
# input copy, outside the profiled range (varlen_counters.py --flush-l2).
#   bash scripts/session35_run10.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
for args in "--d 128 --kvcache contiguous" "--d 128 --kvcache paged" "--d 64 --kvcache contiguous --decode"; do
  echo "== $args --flush-l2"
  timeout 170 python3 scripts/varlen_counters.py $args --flush-l2 --out "$OUT/counters" 2>&1 | tail -4
done
echo "elapsed $(( $(date +%s) - t0 )) s"
