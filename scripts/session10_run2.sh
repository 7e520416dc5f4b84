#!/bin/bash
# Session 10, device run 2: ncu at D=128 S=512 (B=32, H=16), causal against non-causal. Run 1: the
# two-Q-buffer build n128s2_qd takes 97% as long causal as non-causal (n64s3 72%, cuDNN 73%), though causal
# has 62.5% of its key blocks. Where does the causal time go (DRAM, L2, stalls, instructions)?
#   bash scripts/session10_run2.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
prof() {  # prof TAG ARGS...
  tag=$1; shift
  echo "== $tag"
  timeout 100 ncu --clock-control none --nvtx --nvtx-include "attn/" --section WarpStateStats --section SpeedOfLight \
    --section MemoryWorkloadAnalysis --section LaunchStats \
    --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,lts__t_sector_hit_rate.pct,smsp__inst_executed.sum,sm__cycles_active.avg,smsp__inst_executed_pipe_tensor_op_gmma.sum' \
    -c 1 python3 scripts/ncu_stalls.py --d 128 --seq 512 "$@" > $OUT/ncu_$tag.txt 2>&1
  grep -E "ok$|Duration|Elapsed Cycles|SM Active|Memory Throughput|DRAM Throughput|L2 Hit|lts__t_sector_hit|inst_executed.sum|gmma.sum|sm__cycles_active|Warp Cycles Per Issued|stalled_(barrier|long_scoreboard|wait|math|short|not_selected|membar|mio|lg)" \
    $OUT/ncu_$tag.txt | head -24
}
prof qd_full --variant _GLUON_N128S2_QD
prof qd_causal --variant _GLUON_N128S2_QD --causal
prof n64s3_causal --variant _GLUON_N64S3 --causal
prof cudnn_full --peer cudnn
prof cudnn_causal --peer cudnn --causal
