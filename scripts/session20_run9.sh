#!/bin/bash
# Session 20, device run 9: decode-like varlen calls in 1-32 parts per tile (variants.varlen_splits' rule: at most
# one program per SM so far).
#   bash scripts/session20_run9.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 150 python3 scripts/precompile.py --match varlen --match bf16 --match causal --jobs 16 2>&1 | tail -1
timeout 300 python3 scripts/varlen_bench.py --out "$OUT/varlen" --rounds 7 --leak-samples 0 --parts splits 2>&1 | tail -8
