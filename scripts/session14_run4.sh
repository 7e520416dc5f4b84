#!/bin/bash
# Session 14, device run 4: evidence for the packed decode path and the 8/16-part splits: memcheck and synccheck over
# the sanitizer child (new cases: 8 programs at 4,397 keys; one query, 4 heads over 2, 8,291 keys: sixteen parts),
# counters through the API (5 classes x 5 repeats) at a packed call per new build, and the timing-leak test.
#   bash scripts/session14_run4.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
SAN_LIMIT=200 bash scripts/sanitize_child.sh
COUNTERS_LIMIT=100 bash scripts/counters_batch.sh "1,32,1,128,8192,8" "1,32,1,64,16384,2" 2>&1 | grep -E "==|work_identical|kernels|\(|'"
timeout 100 python3 -m dhpfa leak --shape 1,32,1,128,8192,8 --samples 2000 --out $OUT/leak 2>&1 | tail -3
# where the warps of a packed decode call's kv8 build wait (ncu source page; 8 tiles of 4 rows, 4,096 keys), and of
# (1,8,512,64)'s one-consumer build
prof() {  # prof TAG ARGS...
  tag=$1; shift
  timeout 150 ncu --clock-control none --nvtx --nvtx-include "attn/" --section WarpStateStats --section SourceCounters \
    --section SpeedOfLight -c 1 -o $OUT/rep_$tag python3 scripts/ncu_stalls.py "$@" > $OUT/log_$tag.txt 2>&1
  ncu -i $OUT/rep_$tag.ncu-rep --page source --csv --print-source sass > $OUT/sass_$tag.csv 2>&1
  ncu -i $OUT/rep_$tag.ncu-rep --page details > $OUT/details_$tag.txt 2>&1
  echo "== $tag $(grep -E 'Duration' $OUT/details_$tag.txt | head -1)"
  python3 scripts/ncu_source_stalls.py $OUT/sass_$tag.csv --top 12 2>&1 | head -40
  gzip -f $OUT/sass_$tag.csv; rm -f $OUT/rep_$tag.ncu-rep
}
prof kv8_decode --d 128 --shape 1,8,4,4096 --variant _SPLIT_KV8
prof x1_d64 --d 64 --shape 1,8,512,512 --variant _FEW_X1_N128
