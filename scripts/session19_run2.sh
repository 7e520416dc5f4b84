#!/bin/bash
# (Negative: the build and the options it uses were removed after run 5; `git apply docs/experiments/session19_packed_pp_split.diff` restores them (scripts/ppkv_warm.py included).)
# Session 19, device run 2: why the two-consumer split packed build (run 1) runs slower than its work says: ncu on
# (1,32,8,48,8192,128) causal, the build at 2 and 8 parts against the unpacked call (one-consumer split builds).
#   bash scripts/session19_run2.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 200 python3 scripts/precompile.py --match kv --match bf16 --match d128 --jobs 16 2>&1 | tail -1
M=gpu__time_duration.sum,sm__cycles_active.avg,sm__cycles_active.max,smsp__inst_executed.sum,dram__bytes_read.sum,\
dram__bytes_write.sum,launch__grid_size,launch__registers_per_thread,launch__shared_mem_per_block_dynamic,\
smsp__inst_executed_pipe_tensor_op_gmma.sum,lts__t_bytes.sum,smsp__cycles_active.avg
for mode in "--unpacked" "--ppkv 2" "--ppkv 8"; do
  echo "== $mode"
  timeout 120 ncu --clock-control none --nvtx --nvtx-include "attn/" --csv --metrics $M \
    python3 scripts/ncu_packed.py --shape 1,32,8,48,8192,128,c $mode 2>/dev/null | grep -E "^\"[0-9]" | \
    awk -F'","' '{print $5, $(NF-2), $NF}' | sed 's/"//g'
done
for mode in "--unpacked" "--ppkv 8"; do
  echo "== sections $mode"
  timeout 150 ncu --clock-control none --nvtx --nvtx-include "attn/" --section WarpStateStats --section LaunchStats \
    --section Occupancy python3 scripts/ncu_packed.py --shape 1,32,8,48,8192,128,c $mode 2>/dev/null | \
    grep -E "attn_fwd|Stall|Warp Cycles|Grid Size|Block Size|Registers|Achieved|Theoretical Occ|Waves|Shared Memory Config" | head -40
done
