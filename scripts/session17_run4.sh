#!/bin/bash
# Session 17, device run 4: ncu on the packed calls where 8-row slots ran slower than 16-row ones (runs 1-3): elapsed
# time, DRAM and L2 bytes, instructions, for the API's call and the slots16 call, one launch each.
#   bash scripts/session17_run4.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,smsp__inst_executed.sum,sm__cycles_active.max,sm__cycles_active.min,smsp__inst_executed_pipe_tensor_op_gmma.sum,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum,l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum
for shape in 4,32,8,4,8192,128,c 1,32,8,4,8192,64,c; do
  for mode in "" "--slots16"; do
    echo "== $shape $mode"
    timeout 120 ncu --clock-control none --nvtx --nvtx-include "attn/" --csv --metrics $M \
      python3 scripts/ncu_packed.py --shape $shape $mode 2>/dev/null | grep -E "^\"[0-9]" | \
      awk -F'","' '{print substr($5,1,24)" | "$(NF-2)" "$(NF-1)" "$NF}' | sed 's/"//g' | cut -c1-160
  done
done
