#!/bin/bash
# Session 37 call 11: why the short causal cell trails cuDNN (and, for scale, the 16K cell): one launch each of the
# API's build and SDPA cuDNN under ncu (--clock-control none; scripts/ncu_stalls.py, NVTX range "attn"): duration, DRAM
# and L2 throughput, L2 sectors and hit rate, tensor-pipe activity, issue activity.
#   bash scripts/session37_run11.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed
M=$M,lts__t_sectors.sum,lts__t_sectors_op_read.sum,lts__t_sector_hit_rate.pct,lts__throughput.avg.pct_of_peak_sustained_elapsed
M=$M,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_elapsed,sm__inst_executed.sum
M=$M,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_elapsed
M=$M,launch__grid_size,launch__block_size,launch__registers_per_thread,sm__cycles_active.avg,sm__cycles_elapsed.avg
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
for cell in "--seq 512 --causal" "--seq 16384"; do
  for who in "" "--peer cudnn"; do
    echo "== $cell $who"
    timeout 120 $NCU --clock-control none --nvtx --nvtx-include "attn/" --metrics $M --csv --print-units base \
      python3 scripts/ncu_stalls.py --d 128 $cell $who 2>/dev/null | grep -E '^"' | grep -v '"ID"' \
      | awk -F'","' '{print $5" | "$(NF-2)" = "$NF}' | sed 's/"$//'
  done
done
echo "elapsed $(( $(date +%s) - t0 )) s"
