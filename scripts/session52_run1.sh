#!/bin/bash
# Prepared in session 51 for session 52 (not run): which difference from the trees' meeting makes the one-exchange
# meeting (sm90_fwd CL_PULL) fail: memcheck on one direct launch of each form (x16p as measured; @noself: no copies into
# the CTA itself; @t0send: thread 0 issues every copy; @nst0: both), then each form on a full grid in four processes at
# once (session 51: failed there, passed alone), and the tree (x16) as the control.
#   bash scripts/session52_run1.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
for n in x16p x16p@noself x16p@t0send x16p@nst0; do
  echo "== memcheck $n"
  timeout 60 compute-sanitizer --tool memcheck --print-limit 2 python3 scripts/pull_one.py $n 2>&1 | grep -v "Host Frame" | tail -3
done
for n in x16 x16p x16p@noself x16p@t0send x16p@nst0; do
  echo "== full grid, four processes: $n"
  for d in 64 128 64 128; do timeout 120 python3 scripts/pull_grid.py $n $d & done; wait
done
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
