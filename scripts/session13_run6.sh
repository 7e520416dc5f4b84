#!/bin/bash
# Session 13, device run 6: grids of 67-132 64-row programs (too many for two programs per tile) with keys past the
# short-tile lengths, where the API runs variants.select's long-sequence builds (128- or 192-row tiles: with 512 queries
# and 16 heads, 48-64 tiles on 132 SMs): the split-key build (two consumers on one 64-row tile, alternate key blocks)
# beside them. 512 queries, 16 heads, graph replay; causal is bottom-right for both (select and splitk columns).
#   bash scripts/session13_run6.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
for d in 64 128; do
  timeout 100 python3 scripts/small_sweep.py --out $OUT/d${d}h16 --d $d --heads 16 --seq-k 2048,4096,8192,16384 \
    --rounds 7 --kernels gluon_splitk_m64n64s2 | grep -E "^seq_k"
  timeout 100 python3 scripts/small_sweep.py --out $OUT/d${d}h16c --d $d --heads 16 --seq-k 4096,8192,16384 --causal \
    --rounds 7 --kernels gluon_splitk_m64n64s2 | grep -E "^seq_k"
done
