#!/bin/bash
# Session 23 run 1: the per-block paged builds ("_paged_blocks", chosen on the host where page_size % block_n == 0)
# beside the per-key builds and the contiguous call on the same keys; then the varlen GPU tests.
#   bash scripts/session23_run1.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
t0=$(date +%s)
timeout 200 python3 scripts/precompile.py --match varlen --jobs 16 2>&1 | tail -1
echo "precompile $(( $(date +%s) - t0 )) s"
# B,H,H_kv,D,queries per sequence,page
SHAPES="8,32,8,128,1,16;8,32,8,128,1,64;8,32,8,128,1,256;32,32,8,128,1,16;32,32,8,128,1,256;16,16,2,64,1,16"
SHAPES="$SHAPES;16,16,2,64,1,64;8,16,4,256,1,32;8,16,4,256,1,256;4,32,8,128,64,16;4,32,8,128,64,64;4,32,8,128,64,256"
timeout 330 python3 scripts/varlen_bench.py --out "$OUT/varlen" --rounds 7 --leak-samples 0 --parts paged \
    --paged-shapes "$SHAPES" 2>&1 | grep -v "^$" | tail -14
echo "bench $(( $(date +%s) - t0 )) s"
timeout 240 python3 -m pytest -q -m gpu tests/test_varlen.py -p no:cacheprovider 2>&1 | tail -6
echo "total $(( $(date +%s) - t0 )) s"
