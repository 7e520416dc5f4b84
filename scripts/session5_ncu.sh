#!/bin/bash
# Session 5, device run 10: where the named-barrier kernel's consumer warps stall (ncu warp-state,
# scheduler, pipe utilisation), D=64 and D=128 at S=16K, non-causal.   bash scripts/session5_ncu.sh
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
for d in 64 128; do
  timeout 150 ncu --clock-control none --section WarpStateStats --section SchedulerStats --section SpeedOfLight \
    --section ComputeWorkloadAnalysis \
    --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio' -k regex:attn_fwd -c 1 python3 scripts/ncu_stalls.py --d $d --seq 16384 \
    > $OUT/ncu_d$d.txt 2>&1
  grep -E "ok$|stalled|Stall|Warp Cycles|Issued Ipc|Eligible|Active Warps|No Eligible|Compute \(SM\)|Duration|SM Frequency|Pipe|Tensor|One or More" $OUT/ncu_d$d.txt | head -60
done
