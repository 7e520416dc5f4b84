#!/bin/bash
# Session 30 run 3: where the Hopper varlen kernel wins (varlen_bench's grid with the forced Hopper column beside the
# API and the portable kernel): D=96 / 128 at lengths up to 512-4096, D=256 up to 256.
#   bash scripts/session30_run3.sh   (device tool; writes under $OUT)
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 250 python3 scripts/varlen_bench.py --out "$OUT/a" --parts grid --dims 96,128 --kinds short,upto1024,upto2048,mixed \
    --rounds 5 --leak-samples 0 2>&1 | grep -E '^[a-z]' | sed -E 's/diff-vs-fa2 [0-9.e-]+ //'
timeout 120 python3 scripts/varlen_bench.py --out "$OUT/b" --parts grid --dims 256 --kinds upto256,short \
    --rounds 5 --leak-samples 0 2>&1 | grep -E '^[a-z]' | sed -E 's/diff-vs-fa2 [0-9.e-]+ //'
