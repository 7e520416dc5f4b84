#!/bin/bash
# Session 36 call 1: (a) do the ncu metrics for the SMs' own L2 sectors exist here; (b) D=64 decode against its row
# layout (decode_layout_probe.py); (c) ncu sections of one D=64 and one D=128 decode step (decode_ncu.py).
#   bash scripts/session36_run1.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
echo "== metrics"
timeout 60 ncu --query-metrics 2>/dev/null | grep -E "^lts__t_sectors_srcunit_tex|^lts__t_sectors_op_(read|write) " \
  | tee "$OUT/metrics_check.txt" | head -20
echo "== layout probe"
timeout 240 python3 scripts/decode_layout_probe.py --out "$OUT" 2>&1 | tail -16
for d in 64 128; do
  echo "== ncu decode D=$d"
  timeout 120 ncu --clock-control none --profile-from-start off --section SpeedOfLight --section MemoryWorkloadAnalysis \
    --section Occupancy --section SchedulerStats --section WarpStateStats --section ComputeWorkloadAnalysis \
    --section LaunchStats python3 scripts/decode_ncu.py --d $d --b 64 --n 2048 > "$OUT/ncu_decode_d$d.txt" 2>&1
  grep -E "attn_|Duration|DRAM Throughput|Memory Throughput|Compute \(SM\)|Achieved Occupancy|Theoretical Occupancy|Issue Slots Busy|Warp Cycles Per Issued|Registers Per|Block Limit|L2 Hit|Mem Busy|Max Bandwidth|Eligible Warps|No Eligible" \
    "$OUT/ncu_decode_d$d.txt" | head -60
done
echo "elapsed $(( $(date +%s) - t0 )) s"
