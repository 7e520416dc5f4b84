# Sourced by device run scripts (session 19): prof TAG ARGS... runs `$NCU_DRIVER ARGS` (default scripts/ncu_packed.py;
# session 29: scripts/ncu_build.py) under ncu (warp states and source counters, and the sections in $NCU_SECTIONS, one
# kernel after the "attn" NVTX range), writes $OUT/sass_TAG.csv.gz and $OUT/details_TAG.txt, and prints the duration and
# scripts/ncu_source_stalls.py's summary (TOP instructions, default 30).
prof() {
  tag=$1; shift
  timeout 150 ncu --clock-control none --nvtx --nvtx-include "attn/" --section WarpStateStats --section SourceCounters \
    ${NCU_SECTIONS:-} -c 1 -o $OUT/rep_$tag python3 ${NCU_DRIVER:-scripts/ncu_packed.py} "$@" > $OUT/log_$tag.txt 2>&1
  ncu -i $OUT/rep_$tag.ncu-rep --page source --csv --print-source sass > $OUT/sass_$tag.csv 2>&1
  ncu -i $OUT/rep_$tag.ncu-rep --page details > $OUT/details_$tag.txt 2>&1
  echo "== $tag $(grep -E 'Duration' $OUT/details_$tag.txt | head -1)"
  python3 scripts/ncu_source_stalls.py $OUT/sass_$tag.csv --top ${TOP:-30} 2>&1 | head -60
  gzip -f $OUT/sass_$tag.csv; rm -f $OUT/rep_$tag.ncu-rep
}
