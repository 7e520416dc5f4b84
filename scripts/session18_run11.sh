#!/bin/bash
# Session 18, device run 11: around run 8's one loss ((48,5,1,43,700,128) causal, x0.88): the same grid (144 two-consumer
# tiles) with more keys, non-causal, full tiles (groups of 4 / 8), fewer queries, and 132-136 tiles; the API against the
# rule before it (nopp) and unpacked. Does keys, fill or waves explain it?
#   bash scripts/session18_run11.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 150 python3 scripts/precompile.py --match pk8 --jobs 16 2>&1 | tail -1
timeout 400 python3 scripts/packed_queries.py --out $OUT/loss --rounds 11 --no-peers --nopp --shapes \
  "48,5,1,43,700,128,c;48,5,1,43,2048,128,c;48,5,1,43,4096,128,c;48,5,1,43,700,128;72,4,1,43,700,128,c;72,4,1,43,2048,128,c;36,8,2,43,700,128,c;48,5,1,20,700,128,c;66,4,1,50,1000,128,c;34,8,2,60,1500,128,c" \
  2>&1 | grep -E "^\(|Error"
