#!/bin/bash
# Session 17, device run 6: ncu sections (launch, occupancy, warp states, source counters' top stalls) of the packed
# call at (4,32,8,4,8192,128) causal with 8-row and with 16-row slots (run 5: 44.0 against 39.6 us).
#   bash scripts/session17_run6.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
for mode in "" "--slots16"; do
  echo "== $mode"
  timeout 150 ncu --clock-control none --nvtx --nvtx-include "attn/" --section LaunchStats --section Occupancy \
    --section WarpStateStats --section SpeedOfLight --section SchedulerStats \
    python3 scripts/ncu_packed.py --shape 4,32,8,4,8192,128,c $mode 2>/dev/null | \
    grep -E "Duration|Registers|Shared Memory|Block Limit|Threads|Grid Size|Block Size|Warp Cycles|Stall|Issued|Eligible|Active Warps|Elapsed|SM Active|Memory Throughput|Waves" | head -40
done
