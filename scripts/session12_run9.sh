#!/bin/bash
# Session 12, device run 9: causal few-program shapes (512 queries, bottom-right aligned, 2 and 4 heads) over seq_k:
# four programs per tile against two, and the API (scripts/small_sweep.py --causal).
#   bash scripts/session12_run9.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
for d in 64 128; do
  timeout 100 python3 scripts/small_sweep.py --out $OUT/c$d --causal --d $d --heads 2 --seq-k 1024,2048,4096,16384 \
    --rounds 7 | grep -E "^seq_k"
done
