#!/bin/bash
# Session 54 call 7: the swapped-GEMM decode kernel through the API against the forward kernels' packed tiles and
# cuDNN (rule_check --set swap54), counters (three rounds of five classes and five repeats) and dudect at two shapes
# it runs.
#   bash scripts/session54_run7.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== rule_check swap54 ($(( $(date +%s) - t0 )) s)"
timeout 260 python3 scripts/rule_check.py --out "$OUT/rc" --set swap54 --rounds 7 2>&1 | grep -v "^$" | tail -20
s=1,32,1,128,32768,8
echo "== counters --rounds 3 $s ($(( $(date +%s) - t0 )) s)"
timeout 120 python3 -m dhpfa counters --shape $s --rounds 3 --out "$OUT/counters_${s//,/_}" 2>&1 | tail -14
for s in 1,32,1,128,32768,8 2,32,1,64,4096,8; do
  echo "== leak $s ($(( $(date +%s) - t0 )) s)"
  timeout 45 python3 -m dhpfa leak --shape $s --samples 2000 --out "$OUT/leak_${s//,/_}" 2>&1 | tail -1
done
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
