#!/bin/bash
# Session 24 run 3: D=192 paged caches now that D=192 has grouped varlen builds (session 23 run 11): the per-block
# page form (pages that are multiples of 32 keys at D=192) against the per-key form and the contiguous call on the
# same keys (session 23 run 7 read x1.33 per block against x1.27 per key at pages of 32, before the grouped builds).
#   bash scripts/session24_run3.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
t0=$(date +%s)
SHAPES="8,16,4,192,1,32;8,16,4,192,1,64;8,16,4,192,1,256;32,32,8,192,1,256;4,16,4,192,64,32;4,16,4,192,64,256"
SHAPES="$SHAPES;8,16,4,192,1,16;8,16,4,256,1,32;8,16,4,256,1,256;4,16,4,256,64,256"
timeout 300 python3 scripts/varlen_bench.py --out "$OUT/varlen" --rounds 9 --leak-samples 0 --parts paged \
    --paged-shapes "$SHAPES" 2>&1 | grep "^paged" | sed 's/diff.*equal/equal/'
echo "total $(( $(date +%s) - t0 )) s"
