#!/bin/bash
# Session 30 run 5: other tiles of the Hopper varlen kernel at D=64 / 128 (64-key blocks, 3 or 2 stages: causal
# diagonal tiles then skip their consumers' masked blocks, SKIP_MASKED), beside the shipped build (128-key blocks, 2
# stages), the API and the portable kernel, on short to mixed lengths.
#   bash scripts/session30_run5.sh   (device tool; writes under $OUT)
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 400 python3 scripts/varlen_bench.py --out "$OUT" --parts grid --dims 64,128 --kinds short,upto1024,upto2048,mixed \
    --hopper-configs "128,64,3;128,64,2" --rounds 5 --leak-samples 0 2>&1 | grep -E '^[a-z]' \
    | sed -E 's/diff-vs-fa2 [0-9.e-]+ //; s/_varlen//g; s/ host .*//'
