#!/bin/bash
# Session 23 run 7: the final paged builds (per-block: scalar page where BLOCK_D <= 128; per-key: carried columns and
# rows): the varlen GPU tests,
# compute-sanitizer memcheck over the paged GPU tests (the varlen kernels instrumented), and the paged bench across head
# dims and page sizes (per-block form beside the per-key form and the contiguous call on the same keys).
#   bash scripts/session23_run7.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
t0=$(date +%s)
timeout 120 python3 scripts/precompile.py --match varlen --jobs 16 2>&1 | tail -1
timeout 150 python3 -m pytest -q -m gpu tests/test_varlen.py -p no:cacheprovider -rf 2>&1 | tail -3
echo "tests $(( $(date +%s) - t0 )) s"
timeout 200 compute-sanitizer --tool memcheck --kernel-name kns=attn_fwd_varlen \
    python3 -m pytest -q -m gpu tests/test_varlen.py -p no:cacheprovider -k "paged_cache_decode" 2>&1 | tail -3
echo "memcheck $(( $(date +%s) - t0 )) s"
SHAPES="8,32,8,128,1,16;8,32,8,128,1,64;8,32,8,128,1,256;32,32,8,128,1,256;16,16,2,64,1,16;16,16,2,64,1,64"
SHAPES="$SHAPES;8,16,4,96,1,64;8,16,4,192,1,32;8,16,4,256,1,32;8,16,4,256,1,256;4,32,8,128,64,16;4,32,8,128,64,64"
SHAPES="$SHAPES;4,32,8,128,64,256;4,32,8,64,64,16;4,32,8,64,64,64;8,16,4,256,1,16;8,16,4,192,1,16"
SHAPES="$SHAPES;8,32,8,128,1,16,0;8,32,8,128,1,256,0;8,16,4,256,1,16,0"
timeout 240 python3 scripts/varlen_bench.py --out "$OUT/varlen" --rounds 7 --leak-samples 0 --parts paged \
    --paged-shapes "$SHAPES" 2>&1 | grep "^paged" | sed 's/diff.*equal/equal/'
echo "total $(( $(date +%s) - t0 )) s"
