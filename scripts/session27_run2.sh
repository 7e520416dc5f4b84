#!/bin/bash
# Session 27 run 2: run 1's A/B again (its script unpacked the input sets wrongly there): the varlen kernel with the
# causal flag, the window and soft-capping as runtime arguments against the kernel before it (scripts/varlen_fold_ab.py).
# Set-up as run 1 (the two _ab_ files carried).   bash scripts/session27_run2.sh
export PYTHONPATH=$PWD/src:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
t0=$(date +%s)
timeout 400 python3 scripts/varlen_fold_ab.py --old _ab_triton_fwd_old --out "$OUT/fold" --rounds 11 2>&1 | tail -20
echo "ab $(( $(date +%s) - t0 )) s"
