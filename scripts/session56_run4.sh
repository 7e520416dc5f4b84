#!/bin/bash
# Session 56 call 4: counters over rounds and dudect on the merged decode builds as call 3 ran them (the merge in rounds
# of CHUNK parts): D=128 8 pairs x 16 parts, D=64 16 x 8 and 4 x 32, two pairs at D=128 x 32 (the ncu CSVs are
# dropped: the JSON holds every round).
# (Its loop as device_prelude.sh's counters_and_leak since session 57's review: the same commands.)
#   bash scripts/session56_run4.sh   (carry [".whl"]; writes under $OUT; about 6.5 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
counters_and_leak 1,32,1,128,32768,8:8 2,32,1,64,4096,8:8 1,16,1,128,65536,2:6 1,32,1,64,32768,4:6
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
