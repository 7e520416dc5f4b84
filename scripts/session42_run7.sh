#!/bin/bash
# Session 42 call 7: where the one-consumer few-program build's step goes (issue 5's (1,8,512,64) and a 16-step chain at
# (1,4,2048,64)): ncu warp states and per-instruction stall samples (scripts/ncu_source_prof.sh with ncu_build.py).
#   bash scripts/session42_run7.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
source scripts/ncu_source_prof.sh
export NCU_DRIVER=scripts/ncu_build.py TOP=25
{
prof x1_512 --config m64n128s2_x1_ov --shape 1,8,512,64
echo "elapsed $(( $(date +%s) - t0 )) s"
prof x1_2048 --config m64n128s2_x1_ov --shape 1,4,2048,64
echo "elapsed $(( $(date +%s) - t0 )) s"
for t in x1_512 x1_2048; do
  echo "== $t warp states"
  grep -E "Warp Cycles Per Issued Instruction|Issued Warp Per Scheduler|No Eligible|Active Warps Per Scheduler|Stall" \
    $OUT/details_$t.txt | head -20
done
} 2>&1 | tee "$OUT/run.log"
