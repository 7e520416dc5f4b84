#!/bin/bash
# Session 7, device run 7: the API's call plans on the GPU (repeated-signature test, the API tests of
# test_gpu.py), host time per call with them (scripts/host_overhead.py), ncu stall reasons of the D=64
# three-consumer kernel at 16K (the #5 D=64 goal), and the Gluon kernel with 64-key blocks at the D=64
# S <= 1K cells (small_tiles.py --preset d64short).   bash scripts/session7_run7.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT/d64short"
timeout 200 python3 -m pytest tests/test_gpu.py -m gpu -q -p no:cacheprovider \
  -k "repeated_calls or protocol_grid or deterministic or torch_compile or cached" 2>&1 | tail -3
timeout 60 python3 scripts/host_overhead.py --out $OUT 2>&1 | tail -9
timeout 150 ncu --clock-control none --section WarpStateStats --section SchedulerStats --section SpeedOfLight \
  --section ComputeWorkloadAnalysis \
  --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio' -k regex:attn_fwd -c 1 \
  python3 scripts/ncu_stalls.py --d 64 --seq 16384 > $OUT/ncu_d64_x3.txt 2>&1
grep -E "ok$|stalled_(barrier|wait|long_score|short_score|mio|math|dispatch|not_sel|selected|no_inst|branch|sleeping|membar|lg_thr|tex|drain|imc|misc)|Warp Cycles Per Issued|Issued Ipc|Eligible Warps|Active Warps Per|No Eligible|Compute \(SM\) Thr|Duration|SM Frequency|Tensor" $OUT/ncu_d64_x3.txt | head -40
timeout 150 python3 scripts/small_tiles.py --out $OUT/d64short --preset d64short --rounds 9 \
  --shapes "32,32,512,64;16,32,1024,64" 2>&1 | tail -40
