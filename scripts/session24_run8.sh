#!/bin/bash
# Session 24 run 8: varlen_bench.py after its block_table helper (session 23's review): the paged part at two page
# sizes and dudect on paged decode with pages of 16 (few samples: a smoke test of the refactored script).
#   bash scripts/session24_run8.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
t0=$(date +%s)
timeout 300 python3 scripts/varlen_bench.py --out "$OUT/varlen" --rounds 5 --leak-samples 400 --parts paged \
    --leaks paged16 --paged-shapes "8,32,8,128,1,16;8,32,8,128,1,256;4,32,8,128,64,64" 2>&1 \
    | grep "^paged\|^leak" | sed 's/diff.*equal/equal/'
echo "total $(( $(date +%s) - t0 )) s"
