#!/bin/bash
# Session 27 run 4: the A/B of the final fold (scripts/varlen_fold_ab.py): the varlen calls without a window run on the
# causal builds, a non-causal call with the diagonal past every key (attn_fwd_varlen's diag = shift + WIN_RIGHT), against
# the kernel before session 27 (run 3's window form lost 5-20% and was dropped), and the dense builds split across
# programs running non-causal calls as causal ones (dispatch.SPLIT_KV_FULL_AS_CAUSAL) against their non-causal binaries.
# Set-up as run 1 (the two _ab_ files carried).   bash scripts/session27_run4.sh
export PYTHONPATH=$PWD/src:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
t0=$(date +%s)
timeout 500 python3 scripts/varlen_fold_ab.py --old _ab_triton_fwd_old --out "$OUT/fold" --rounds 11 2>&1 | tail -40
echo "ab $(( $(date +%s) - t0 )) s"
