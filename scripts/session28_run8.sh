#!/bin/bash
# Session 28 run 8: attn_fwd_tma on a (tiles, heads, batch) grid (batch and head from program ids: no integer division
# before the Q load; triton_fwd.TMA_GRID3, a launch_args setting with the kernel's GRID3 constexpr) against the
# (tiles, batch * heads) grid (scripts/triton_switch_ab.py --attr: the API, graph replay, interleaved rounds), twice.
# The edit: docs/experiments/session28_tma_grid3.diff (mixed: x1.015-1.023 at S=512, x0.986-0.989 at D=64 1K and causal
# 2K, x0.980-0.985 at D=192; not shipped).
#   bash scripts/session28_run8.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
t0=$(date +%s)
SH="32,32,512,64;32,32,512,64,c;16,32,1024,64;16,32,1024,64,c;8,32,2048,64,c;4,16,1024,64;32,64,512,32;1,8,512,128,c"
SH="$SH;8,16,2048,96,c;8,8,2048,192,c;3,5,1000,64"
for i in 1 2; do
  timeout 270 python3 scripts/triton_switch_ab.py --attr --switch TMA_GRID3 --values True --out "$OUT/ab$i" \
    --rounds ${ROUNDS:-25} --shapes "$SH" 2>&1 | grep -v "^\[" | tail -11
done
echo "ab $(( $(date +%s) - t0 )) s"
