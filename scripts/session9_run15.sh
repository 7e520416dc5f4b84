#!/bin/bash
# Session 9, device run 15: ncu of the D=128 builds with one and two Q buffers at (1,16,131072,128) and
# (1,16,16384,128) (run 14: two buffers x0.933 at 128K, x0.995 at 16K): warp states, speed of light, memory.
#   bash scripts/session9_run15.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
for seq in 131072 16384; do
  for var in _GLUON_N128S2 _GLUON_N128S2_QD; do
    tag=s${seq}${var}
    echo "== seq $seq $var"
    timeout 100 ncu --clock-control none --nvtx --nvtx-include "attn/" --section WarpStateStats --section SpeedOfLight \
      --section MemoryWorkloadAnalysis --section LaunchStats \
      --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,lts__t_sector_hit_rate.pct' \
      -c 1 python3 scripts/ncu_stalls.py --d 128 --seq $seq --variant $var > $OUT/ncu_$tag.txt 2>&1
    grep -E "ok$|Duration|Elapsed Cycles|SM Active|Memory Throughput|DRAM Throughput|L2 Hit|lts__t_sector_hit|Warp Cycles Per Issued|stalled_(barrier|long_scoreboard|wait|math|short|not_selected)" \
      $OUT/ncu_$tag.txt | head -16
  done
done
