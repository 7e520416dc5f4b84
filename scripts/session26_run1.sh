#!/bin/bash
# Session 26 run 1 (experiment): which builds win at D=64 below the three-consumer build's lengths now that its row
# sums run on the tensor cores (session 25, L_MMA: +9% at 8K / 16K). scripts/ab_sm90.py against the API's choice
# (the Triton 64-row TMA tiles at S <= 4K non-causal, <= 8K causal): the three-consumer build (192-row tiles) with one
# and two Q buffers, and the two-consumer n128s2 as shipped and with the row sums on the tensor cores too (module lm2:
# docs/experiments/session25_l_mma2.diff applied to a copy, src/dhpfa/kernels/_ab_lm2.py, carried).
#   bash scripts/session26_run1.sh   (device tool: carry ["src/dhpfa/kernels/_ab_lm2.py"]; writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
t0=$(date +%s)
timeout ${LIMIT:-560} python3 scripts/ab_sm90.py --out "$OUT/ab" --module lm2=src/dhpfa/kernels/_ab_lm2.py --check-all \
    --configs ${CONFIGS:-m192n128s2_x3_nopp,m192n128s2_x3_nopp_qd,n128s2} --cases ${CASES:-64:512,64:1024,64:2048,64:4096,64:8192} \
    --reference dhpfa --rounds ${ROUNDS:-11} 2>&1 | grep -v "^\[" | tail -40
echo "total $(( $(date +%s) - t0 )) s"
