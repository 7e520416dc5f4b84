#!/bin/bash
# Session 60, call 7: the counters again where call 4 flagged a class (5 rounds at (2,32,1,64,2049,8): the SMs' L2 read
# sectors, spiky, |t| 5.4; call 4's binary was the EVEN-constexpr form), now 8 rounds on the shipped binary, and 6
# rounds at an even-parts shape.
#   bash scripts/session60_run7.sh   (carry [".whl"]; writes under $OUT; about 3 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
for sr in 2,32,1,64,2049,8:8 1,32,1,128,2049,4:6; do
  s=${sr%:*}; r=${sr#*:}
  echo "== counters --rounds $r $s ($(( $(date +%s) - t0 )) s)"
  timeout 200 python3 -m dhpfa counters --shape $s --rounds $r --out "$OUT/counters_${s//,/_}" 2>&1 | tail -10
  rm -f "$OUT"/counters_${s//,/_}/*.csv
done
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
