#!/bin/bash
# Session 42 call 13: timing by input class where no two SMs share K/V (dudect, `dhpfa leak`, 2,000 samples a class) at
# (1,132,128,128, 4,096 keys) beside (8,16,2048,128); and the counters tool's verdict at the no-sharing shape.
#   bash scripts/session42_run13.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 150 python3 -m dhpfa leak --shape 1,132,128,128,4096,132 --samples 2000 --out "$OUT/leak_noshare" 2>&1 | tail -4
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 150 python3 -m dhpfa leak --shape 8,16,2048,128 --samples 2000 --out "$OUT/leak_d128" 2>&1 | tail -4
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 90 python3 -m dhpfa counters --shape 1,132,128,128,4096,132 --out "$OUT/counters_noshare" 2>&1 | tail -4
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
