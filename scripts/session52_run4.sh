#!/bin/bash
# Session 52 call 4: the one-exchange meeting on by default (sm90_fwd CL_PULL_DEFAULT, loads from each rank's shared
# memory): hardware counters across input classes (dhpfa counters: work counts and DRAM bytes equal, only barrier
# spin-waits may vary) and dudect-style timing tests (dhpfa leak, 1,000 samples a class) on MQA decode shapes whose
# split is one cluster (16 parts at D=128 and D=64, 8 at D=128 with eight KV heads), and the API's timing of those
# shapes against cuDNN (rule_check --set pull51 reads the exchange against the tree).
#   bash scripts/session52_run4.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
grep -n "^CL_PULL_DEFAULT" src/dhpfa/kernels/sm90_fwd.py
for shape in 1,32,1,128,2048,1 1,32,1,64,2048,1 1,32,1,128,8192,8; do
  echo "== counters $shape ($(( $(date +%s) - t0 )) s)"
  timeout 150 python3 -m dhpfa counters --shape $shape --out "$OUT/counters_${shape//,/_}" 2>&1 | tail -6
done
for shape in 1,32,1,128,2048,1 1,32,1,128,8192,8; do
  echo "== leak $shape ($(( $(date +%s) - t0 )) s)"
  timeout 120 python3 -m dhpfa leak --shape $shape --samples 1000 --out "$OUT/leak_${shape//,/_}" 2>&1 | tail -6
done
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
