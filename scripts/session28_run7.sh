#!/bin/bash
# Session 28 run 7: attn_fwd_tma prefetching the first two key blocks of K and V into L2 before it loads Q
# (triton_fwd._TMA_PREFETCH) against the tree's kernel (scripts/triton_switch_ab.py: the API, graph replay, interleaved
# rounds), twice. The edit: docs/experiments/session28_tma_prefetch.diff (x0.965-0.996, reverted).
#   bash scripts/session28_run7.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
t0=$(date +%s)
SH="32,32,512,64;32,32,512,64,c;16,32,1024,64;16,32,1024,64,c;8,32,2048,64,c;4,16,1024,64;32,64,512,32;1,8,512,128,c"
SH="$SH;8,16,2048,96,c;8,8,2048,192,c"
for i in 1 2; do
  timeout 270 python3 scripts/triton_switch_ab.py --switch _TMA_PREFETCH --values True --out "$OUT/ab$i" \
    --rounds ${ROUNDS:-25} --shapes "$SH" 2>&1 | grep -v "^\[" | tail -10
done
echo "ab $(( $(date +%s) - t0 )) s"
