#!/bin/bash
# Session 60, prepared for the next session (not run): is the even parts' loss on full grids (call 5: (4,32,8,1,2049,128)
# 14.33 / 13.37 us at 4 parts both ways) L2 residency? decode_even60.py --time with 3 input sets and with 24 (16-34 MB a
# set: 24 sets read 0.4-0.8 GB a batch, none of it in L2 from the call before).
#   bash scripts/session60_run9.sh   (carry [".whl"]; writes under $OUT; about 1.5 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
for n in 3 24; do
  echo "== even / equal, $n input sets ($(( $(date +%s) - t0 )) s)"
  timeout 150 python3 scripts/decode_even60.py --time --rounds 9 --sets $n 2>&1 | grep -v Warning
done
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
