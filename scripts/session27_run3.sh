#!/bin/bash
# Session 27 run 3: the A/B of the final fold (scripts/varlen_fold_ab.py): varlen launches at head dims <= 128 on
# contiguous keys in the window form (causal as the window (unbounded, 0); triton_fwd.WINDOW_FORM_MAX_HEAD_DIM) against
# the kernel before session 27, and the dense builds split across programs running non-causal calls as causal ones with
# the diagonal past every key (dispatch.SPLIT_KV_FULL_AS_CAUSAL) against their non-causal binaries.
# Set-up as run 1 (the two _ab_ files carried).   bash scripts/session27_run3.sh
export PYTHONPATH=$PWD/src:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
t0=$(date +%s)
timeout 500 python3 scripts/varlen_fold_ab.py --old _ab_triton_fwd_old --out "$OUT/fold" --rounds 11 2>&1 | tail -30
echo "ab $(( $(date +%s) - t0 )) s"
