#!/bin/bash
# Session 18, device run 8: the shipped rule at 16 random shapes where it takes the two-consumer packed builds (seed 18:
# D in 64-256, groups of 2-16, 2-64 queries, 700-8,192 keys, batches 4-96, 70% causal), against the rule before it
# (nopp) and the unpacked call: does the rule ever lose?
#   bash scripts/session18_run8.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 150 python3 scripts/precompile.py --match pk8 --jobs 16 2>&1 | tail -1
timeout 400 python3 scripts/packed_queries.py --out $OUT/random --rounds 9 --nopp --no-peers --shapes \
  "24,16,1,23,1024,96;96,32,8,32,2048,256;48,10,2,14,8192,96,c;32,40,8,47,2048,96,c;32,16,2,36,2048,128;64,10,2,15,8192,256,c;24,24,8,60,8192,192,c;48,5,1,43,700,128,c;32,16,2,28,1024,128;32,16,4,23,2048,256;16,128,8,57,3000,128,c;8,24,4,33,700,96;32,8,2,61,1024,192;64,16,2,46,3000,256;24,8,4,62,1024,256;96,40,8,41,2048,96,c" \
  2>&1 | grep -E "^\(|Error"
