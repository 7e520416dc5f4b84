#!/bin/bash
# Session 23 run 8: dudect-style leak tests (../shared/protocols.md: interleaved classes on the same buffers) of decode
# steps on paged caches, pages of 16 (the per-key builds) and 256 (the per-block builds), D=128, 32 query heads over 8,
# 8 sequences of 1-4096 keys (grouped heads, split across programs).
#   bash scripts/session23_run8.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
t0=$(date +%s)
timeout 300 python3 scripts/varlen_bench.py --out "$OUT/varlen" --parts none --leaks paged16,paged256 \
    --leak-samples 2000 2>&1 | grep "^leak"
echo "total $(( $(date +%s) - t0 )) s"
