#!/bin/bash
# Session 24 run 2: the Triton TMA kernel's key blocks in one loop against the shipped two loops
# (scripts/tma_one_loop_ab.py: the API either way, CUDA-graph replay, interleaved rounds, SDPA flash / cuDNN beside).
#   bash scripts/session24_run2.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
t0=$(date +%s)
timeout 540 python3 scripts/tma_one_loop_ab.py --out $OUT/ab --rounds 11 2>&1 | grep -v "^\[" | tail -30
echo "ab $(( $(date +%s) - t0 )) s"
