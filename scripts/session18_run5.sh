#!/bin/bash
# Session 18, device run 5: the shipped rule against the rule before it (nopp: 64-row packed tiles up to 32 queries,
# unpacked past) and the unpacked call, at shapes where the two-consumer packed builds now run (groups of 2-8, 9-64
# queries, D=96-256, causal and not), and two where they do not (a group fits one 64-row tile).
#   bash scripts/session18_run5.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 150 python3 scripts/precompile.py --match pk8 --jobs 16 2>&1 | tail -1
timeout 400 python3 scripts/packed_queries.py --out $OUT/nopp --rounds 9 --nopp --shapes \
  "64,28,4,12,2048,128,c;16,32,8,24,4096,256,c;16,32,8,32,4096,128,c;32,32,8,17,4096,128,c;32,40,8,16,4096,128,c;24,12,2,24,8192,192,c;32,16,8,10,4096,128;48,32,8,20,2048,96;128,32,8,9,1024,128,c;64,32,8,64,1024,128,c;12,16,4,56,8192,256;20,28,4,36,4096,128,c" \
  2>&1 | grep -E "^\(|Error"
