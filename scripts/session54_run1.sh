#!/bin/bash
# Prepared in session 53 for the next session (not run): the counters' open question. Sessions 50-53 read the SMs' L2
# read sectors with a class spread a little above the repeat spread at some MQA shapes (e.g. 136 / 56 of ~141,400 at
# (1,32,1,1,8192,128), the tool's "NO") while every work count and the L2 write sectors were identical; one round of
# five classes and five repeats cannot tell timing scatter from a data dependence. `dhpfa counters --rounds 8` tests
# each class against the repeats over eight rounds (Welch's t, |t| > 4.5 flagged). Then dudect on the final exchange
# source (session 53's counters and dudect ran before its last cleanup, 1fd0c2f).
#   bash scripts/session54_run1.sh   (carry [".whl"]; writes under $OUT; about 5 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
for s in 1,32,1,128,8192,1 1,32,1,128,2048,1; do
  echo "== counters --rounds 8 $s ($(( $(date +%s) - t0 )) s)"
  timeout 240 python3 -m dhpfa counters --shape $s --rounds 8 --out "$OUT/counters_${s//,/_}" 2>&1 | tail -12
done
for s in 1,32,1,128,8192,1 1,32,1,64,16384,1; do
  echo "== leak $s ($(( $(date +%s) - t0 )) s)"
  timeout 60 python3 -m dhpfa leak --shape $s --samples 2000 --out "$OUT/leak_${s//,/_}" 2>&1 | tail -1
done
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
