#!/bin/bash
# Session 18, device run 2: where the 128-row packed tiles (33-64 queries) beat the unpacked call. Run 1 read x1.31-1.34
# at D=128 with 512-1,024 query heads x sequences (unpacked: the persistent 128-row tiles, half or more of their rows
# empty), x0.75-0.94 on small grids (unpacked: 64-row tiles split across programs). Big and middle grids at D=64 / 96 /
# 128 / 256, causal and not.
#   bash scripts/session18_run2.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 150 python3 scripts/precompile.py --match w8s2kv1 --jobs 16 2>&1 | tail -1
timeout 300 python3 scripts/packed_queries.py --out $OUT/wide --rounds 9 --twin --shapes \
  "8,40,8,56,4096,128;16,32,8,48,2048,128,c;6,32,8,40,4096,128;4,64,8,64,8192,128,c;64,32,8,48,1024,128,c;16,32,8,64,4096,64,c;32,32,8,40,2048,64;8,32,8,48,8192,64,c;16,16,4,48,4096,256,c;32,16,4,64,2048,256;16,32,8,40,4096,256,c;16,32,8,48,4096,96,c;12,32,8,64,4096,128,c" \
  2>&1 | grep -E "^\(|Error"
