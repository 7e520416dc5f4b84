#!/bin/bash
# Session 28 run 5: where the Triton TMA kernel's all-masked causal loop computes wrong outputs
# (scripts/tma_one_loop_probe.py: head dims 64 / 32 / 128 / 96, lengths 64-1024, against float64).
#   bash scripts/session28_run5.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
t0=$(date +%s)
timeout 400 python3 scripts/tma_one_loop_probe.py --out "$OUT/probe" 2>&1 | grep -v "^\[" | tail -40
echo "probe $(( $(date +%s) - t0 )) s"
