#!/bin/bash
# Session 53 call 5 (CL_PULL_PHASES on): counters (5 classes x 5 repeats) at MQA (1,32,1,1,S,D) through the API: 8,192 keys
# D=128 (64 parts, four clusters, two workspace levels), 2,048 keys D=128 / 64 (sixteen parts, one cluster); dudect
# (1,000 samples a class) at the first two; issue 5's small shapes (dhpfa bench --parts small).
#   bash scripts/session53_run5.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
for s in 1,32,1,128,8192,1 1,32,1,128,2048,1 1,32,1,64,2048,1; do
  echo "== counters $s ($(( $(date +%s) - t0 )) s)"
  timeout 60 python3 -m dhpfa counters --shape $s --out "$OUT/counters_${s//,/_}" 2>&1 | tail -1
done
for s in 1,32,1,128,8192,1 1,32,1,128,2048,1; do
  echo "== leak $s ($(( $(date +%s) - t0 )) s)"
  timeout 40 python3 -m dhpfa leak --shape $s --samples 1000 --out "$OUT/leak_${s//,/_}" 2>&1 | tail -1
done
echo "== bench small ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 -m dhpfa bench --quick --dtypes bf16 --parts small --out "$OUT/bench" 2>&1 | tail -8
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
