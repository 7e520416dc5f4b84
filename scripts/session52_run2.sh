#!/bin/bash
# Session 52 call 2: what compute-sanitizer's memcheck reports on one direct launch of the exchange opened through the
# cluster barrier (call 1: 1,794 errors, "Target application returned an error", but right output in full grids),
# with the tree (x16) as the control and the forms without copies into the CTA itself (@noself) and with thread 0
# issuing every copy (@t0send).
#   bash scripts/session52_run2.sh   (carry [".whl"]; writes under $OUT)
# (Ran at 3e4f2df: x16p@noself / x16p@t0send need that commit's sm90_fwd switches, removed in 39849c4.)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
for n in x16p x16 x16p@noself x16p@t0send; do
  echo "== memcheck $n ($(( $(date +%s) - t0 )) s)"
  timeout 100 compute-sanitizer --tool memcheck --print-limit 5 python3 scripts/pull_one.py $n 2>&1 \
    | grep -v "Host Frame" | grep -v "^=========\s*$" | head -40
done
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
