#!/bin/bash
# Session 23 run 10 (experiment): the per-key paged builds loading the next key block's page indices during the current
# block (loop-carried, DHPFA_EXP_PREFETCH=1) against the shipped carried form (=0), pages of 16. One bench process per
# form, the same shapes; the prefetch run repeated.
#   bash scripts/session23_run10.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
t0=$(date +%s)
SHAPES="8,32,8,128,1,16;32,32,8,128,1,16;16,16,2,64,1,16;8,16,4,256,1,16;4,32,8,128,64,16;4,32,8,64,64,16"
for form in 1 0 1; do
    echo "== DHPFA_EXP_PREFETCH=$form"
    DHPFA_EXP_PREFETCH=$form timeout 150 python3 scripts/varlen_bench.py --out "$OUT/varlen_$form" --rounds 7 \
        --leak-samples 0 --parts paged --paged-shapes "$SHAPES" 2>&1 | grep "^paged" | sed 's/diff.*equal/equal/'
done
echo "bench $(( $(date +%s) - t0 )) s"
DHPFA_EXP_PREFETCH=1 timeout 200 python3 -m pytest -q -m gpu tests/test_varlen.py -p no:cacheprovider -k paged 2>&1 | tail -2
echo "total $(( $(date +%s) - t0 )) s"
