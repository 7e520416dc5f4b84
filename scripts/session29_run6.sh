#!/bin/bash
# Session 29 run 6: why a second Q buffer loses at D=128 causal 512 (n64s3_qd x0.96 of n64s3 in sessions 10 and 29):
# ncu warp states and source counters of one launch of each (32,16,512,128) causal (scripts/ncu_source_prof.sh with
# scripts/ncu_build.py), stall samples by kind (scripts/ncu_source_stalls.py), the durations and DRAM throughput.
#   bash scripts/session29_run6.sh   (device tool; writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
t0=$(date +%s)
export NCU_DRIVER=scripts/ncu_build.py NCU_SECTIONS="--section SpeedOfLight --section MemoryWorkloadAnalysis" TOP=12
. scripts/ncu_source_prof.sh
prof n64s3_c --config n64s3 --shape 32,16,512,128,c
prof n64s3qd_c --config n64s3_qd --shape 32,16,512,128,c
grep -E 'DRAM Throughput|L2 Hit Rate' $OUT/details_*.txt
echo "total $(( $(date +%s) - t0 )) s"
