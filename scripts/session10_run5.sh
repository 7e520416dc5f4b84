#!/bin/bash
# Session 10, device run 5: where the consumer warps stall, per SASS instruction (ncu warp-state sampling,
# source page), at D=128 S=512 (B=32, H=16): n64s3 causal (the API's), n128s2_qd causal and non-causal.
# Graph replay (run 4): n64s3 causal 299 TFLOPS, n128s2_qd causal 263, cuDNN causal 342, with the same GEMM
# count as n128s2_qd (run 2).
#   bash scripts/session10_run5.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
prof() {  # prof TAG ARGS...
  tag=$1; shift
  timeout 150 ncu --clock-control none --nvtx --nvtx-include "attn/" --section WarpStateStats --section SourceCounters \
    --section SpeedOfLight -c 1 -o $OUT/rep_$tag python3 scripts/ncu_stalls.py --d 128 --seq 512 "$@" > $OUT/log_$tag.txt 2>&1
  ncu -i $OUT/rep_$tag.ncu-rep --page source --csv --print-source sass > $OUT/sass_$tag.csv 2>&1
  ncu -i $OUT/rep_$tag.ncu-rep --page details > $OUT/details_$tag.txt 2>&1
  echo "== $tag $(grep -E 'Duration' $OUT/details_$tag.txt | head -1)"; head -c 600 $OUT/sass_$tag.csv | head -3
  gzip -f $OUT/sass_$tag.csv; rm -f $OUT/rep_$tag.ncu-rep
}
prof n64s3_causal --variant _GLUON_N64S3 --causal
prof qd_causal --variant _GLUON_N128S2_QD --causal
prof qd_full --variant _GLUON_N128S2_QD
