#!/bin/bash
# Session 19, device run 6: do the one-consumer split builds wait for Q as long as run 3's two-consumer build did?
# ncu source page of the API's call at (1,32,8,32,8192,128) causal (packed, 8 parts: 128 programs) and of the unpacked
# call at (1,32,8,48,8192,128) causal (4 parts: 128 programs).
#   bash scripts/session19_run6.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 200 python3 scripts/precompile.py --match kv --match bf16 --match d128-causal --jobs 16 2>&1 | tail -1
prof() {  # prof TAG ARGS...
  tag=$1; shift
  timeout 150 ncu --clock-control none --nvtx --nvtx-include "attn/" --section WarpStateStats --section SourceCounters \
    -c 1 -o $OUT/rep_$tag python3 scripts/ncu_packed.py "$@" > $OUT/log_$tag.txt 2>&1
  ncu -i $OUT/rep_$tag.ncu-rep --page source --csv --print-source sass > $OUT/sass_$tag.csv 2>&1
  ncu -i $OUT/rep_$tag.ncu-rep --page details > $OUT/details_$tag.txt 2>&1
  echo "== $tag $(grep -E 'Duration' $OUT/details_$tag.txt | head -1)"
  python3 scripts/ncu_source_stalls.py $OUT/sass_$tag.csv --top 12 2>&1 | head -30
  gzip -f $OUT/sass_$tag.csv; rm -f $OUT/rep_$tag.ncu-rep
}
prof p8 --shape 1,32,8,32,8192,128,c
prof unpacked48 --shape 1,32,8,48,8192,128,c --unpacked
