#!/bin/bash
# Session 36 call 15: why the kvcache route reads K / V slower than the dense route at D=64 with many sequences (call 9:
# 2.34 against 2.78 TB/s at B=64, 2K keys): ncu sections of one step each way (decode_ncu.py --api kvcache / func).
#   bash scripts/session36_run15.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
for api in kvcache func; do
  echo "== $api"
  timeout 90 ncu --clock-control none --profile-from-start off --section SpeedOfLight --section MemoryWorkloadAnalysis \
    --section Occupancy --section SchedulerStats --section WarpStateStats --section LaunchStats \
    --section MemoryWorkloadAnalysis_Tables python3 scripts/decode_ncu.py --d 64 --b 64 --n 2048 --api $api \
    > "$OUT/ncu_d64_$api.txt" 2>&1
  grep -E "^  [a-z_0-9]+ \(|Duration|DRAM Throughput|L2 Hit Rate|L1/TEX Hit|Achieved Occupancy|Registers Per|Waves Per SM|Issue Slots Busy|Warp Cycles Per Issued|Block Size|Grid Size|Mem Busy|Max Bandwidth" "$OUT/ncu_d64_$api.txt" | head -40
done
echo "elapsed $(( $(date +%s) - t0 )) s"
