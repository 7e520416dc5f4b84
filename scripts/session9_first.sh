#!/bin/bash
# Prepared at the end of session 8 for the next session (not run): where dhpfa loses to cuDNN at the short
# grid cells (D=128 S=512/1K non-causal 0.92-0.94, D=64 S=512 0.99; session 8 run 5), read side by side
# with ncu (warp states, scheduler, speed of light, pipe use) for dhpfa's kernel and cuDNN's.
#   bash scripts/session9_first.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
for cfg in "--d 128 --seq 512" "--d 128 --seq 512 --peer cudnn" "--d 128 --seq 1024" "--d 128 --seq 1024 --peer cudnn" \
           "--d 64 --seq 512" "--d 64 --seq 512 --peer cudnn"; do
  tag=$(echo $cfg | tr -d ' -')
  echo "== $cfg"
  timeout 120 ncu --clock-control none --nvtx --nvtx-include "attn/" --section WarpStateStats --section SchedulerStats \
    --section SpeedOfLight --section ComputeWorkloadAnalysis --section Occupancy --section LaunchStats \
    --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio' -c 1 \
    python3 scripts/ncu_stalls.py $cfg > $OUT/ncu_$tag.txt 2>&1
  grep -E "ok$|  [a-z_]+(attn|sdpa|cudnn|fmha|flash)|Duration|SM Frequency|Compute \(SM\)|Issued Ipc|Eligible Warps|No Eligible|Achieved Occupancy|Registers Per|Block Size|Grid Size|Waves Per SM|Warp Cycles Per Issued|stalled_(barrier|long_scoreboard|wait|math|mio|short|dispatch|not_selected|membar|sleeping|branch)" \
    $OUT/ncu_$tag.txt | head -30
done
