#!/bin/bash
# Session 38 call 8: evidence on the changed dense causal binaries (ROW_BOUND): counters (5 classes x 5 repeats) and
# dudect at D=128 causal 512 (the API's balanced n64s3 build), dudect at D=64 causal 1K (n128s2 / s3 there).
#   bash scripts/session38_run5.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 150 python3 -m dhpfa counters --shape 32,16,512,128 --causal --out "$OUT/counters" 2>&1 | tail -8
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 100 python3 -m dhpfa leak --shape 32,16,512,128 --causal --samples 1000 2>&1 | tail -6
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 80 python3 -m dhpfa leak --shape 16,32,1024,64 --causal --samples 600 2>&1 | tail -6
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
