#!/bin/bash
# Session 54 call 1. (a) Session 53's review (0dfe895) changed the eight 64-part exchange binaries (address arithmetic
# only, audit clean offline) after its last device call: call 44's float64 checks of x64p, the bitwise repeats,
# memcheck / synccheck on a direct x64p launch and over sanitize_clusters.py. (b) The counters' open question (prepared
# in session 53): sessions 50-53 read the SMs' L2 read sectors with a class spread a little above the repeat spread at
# some MQA shapes (136 / 56 of ~141,400 at (1,32,1,1,8192,128), the tool's "NO") while every work count and the L2 write
# sectors were identical; `dhpfa counters --rounds 8` tests each class against the repeats over eight rounds (Welch's
# t, |t| > 4.5 flagged). (c) dudect on the final exchange source.
#   bash scripts/session54_run1.sh   (carry [".whl"]; writes under $OUT; about 7 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== call 44 checks x64p ($(( $(date +%s) - t0 )) s)"
timeout 170 python3 scripts/cluster_tree_ab.py --out "$OUT/c44" --call 44 --checks x64p --checks-only --precompile 16 \
  2>&1 | tail -12
for tool in memcheck synccheck; do
  echo "== $tool x64p 1 1 1 7 40001 64 ($(( $(date +%s) - t0 )) s)"
  timeout 60 compute-sanitizer --tool $tool --print-limit 3 python3 scripts/pull_one.py x64p 1 1 1 7 40001 64 \
    > /tmp/san.log 2>&1
  grep -v "Host Frame" /tmp/san.log | grep -v "^=========\s*$" | head -12 | tail -3
done
echo "== memcheck sanitize_clusters ($(( $(date +%s) - t0 )) s)"
timeout 70 compute-sanitizer --tool memcheck --kernel-name kns=attn_fwd python3 scripts/sanitize_clusters.py 2>&1 | tail -2
for s in 1,32,1,128,8192,1 1,32,1,128,2048,1; do
  echo "== counters --rounds 8 $s ($(( $(date +%s) - t0 )) s)"
  timeout 200 python3 -m dhpfa counters --shape $s --rounds 8 --out "$OUT/counters_${s//,/_}" 2>&1 | tail -14
done
for s in 1,32,1,128,8192,1 1,32,1,64,16384,1; do
  echo "== leak $s ($(( $(date +%s) - t0 )) s)"
  timeout 40 python3 -m dhpfa leak --shape $s --samples 2000 --out "$OUT/leak_${s//,/_}" 2>&1 | tail -1
done
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
