#!/bin/bash
# Session 29 run 6: why a second Q buffer loses at D=128 causal 512 (n64s3_qd x0.96 of n64s3 in sessions 10 and 29):
# ncu warp states and source counters of one launch of each (32,16,512,128) causal, stall samples by kind
# (scripts/ncu_source_stalls.py), and the durations.
#   bash scripts/session29_run6.sh   (device tool; writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
t0=$(date +%s)
prof() {
  tag=$1; shift
  timeout 150 ncu --clock-control none --nvtx --nvtx-include "attn/" --section WarpStateStats --section SourceCounters \
    --section SpeedOfLight --section MemoryWorkloadAnalysis -c 1 -o $OUT/rep_$tag python3 scripts/ncu_build.py "$@" \
    > $OUT/log_$tag.txt 2>&1
  ncu -i $OUT/rep_$tag.ncu-rep --page source --csv --print-source sass > $OUT/sass_$tag.csv 2>&1
  ncu -i $OUT/rep_$tag.ncu-rep --page details > $OUT/details_$tag.txt 2>&1
  echo "== $tag $(grep -E ' Duration|DRAM Throughput|Memory Throughput' $OUT/details_$tag.txt | head -3 | tr -s ' ' | tr '\n' ';')"
  python3 scripts/ncu_source_stalls.py $OUT/sass_$tag.csv --top ${TOP:-12} 2>&1 | head -30
  gzip -f $OUT/sass_$tag.csv; rm -f $OUT/rep_$tag.ncu-rep
}
prof n64s3_c --config n64s3 --shape 32,16,512,128,c
prof n64s3qd_c --config n64s3_qd --shape 32,16,512,128,c
echo "total $(( $(date +%s) - t0 )) s"
