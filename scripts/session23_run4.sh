#!/bin/bash
# Session 23 run 4 (experiment): the per-block paged builds with the block's page as one scalar (a scalar row base per
# block, in-block row offsets as in the unpaged builds; DHPFA_EXP_SCALAR_PAGE=1) against run 1's per-block form, whose
# page index is a tensor in each tile's layout (=0). One bench process per form, the same shapes, interleaved rounds
# against the contiguous call and the per-key form within each.
#   bash scripts/session23_run4.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
t0=$(date +%s)
SHAPES="8,32,8,128,1,256;32,32,8,128,1,256;16,16,2,64,1,64;8,16,4,256,1,256;4,32,8,128,64,64;4,32,8,128,64,256"
for form in 1 0 1; do
    echo "== DHPFA_EXP_SCALAR_PAGE=$form"
    DHPFA_EXP_SCALAR_PAGE=$form timeout 150 python3 scripts/varlen_bench.py --out "$OUT/varlen_$form" --rounds 7 \
        --leak-samples 0 --parts paged --paged-shapes "$SHAPES" 2>&1 | grep "^paged" | sed 's/diff.*equal/equal/'
done
echo "bench $(( $(date +%s) - t0 )) s"
DHPFA_EXP_SCALAR_PAGE=1 timeout 200 python3 -m pytest -q -m gpu tests/test_varlen.py -p no:cacheprovider -k paged 2>&1 | tail -2
echo "total $(( $(date +%s) - t0 )) s"
