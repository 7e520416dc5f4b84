#!/bin/bash
# Session 19, device run 6: do the one-consumer split builds wait for Q as long as run 3's two-consumer build did?
# ncu source page of the API's call at (1,32,8,32,8192,128) causal (packed, 8 parts: 128 programs) and of the unpacked
# call at (1,32,8,48,8192,128) causal (4 parts: 128 programs).
#   bash scripts/session19_run6.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 200 python3 scripts/precompile.py --match kv --match bf16 --match d128-causal --jobs 16 2>&1 | tail -1
TOP=12
. scripts/ncu_source_prof.sh
prof p8 --shape 1,32,8,32,8192,128,c
prof unpacked48 --shape 1,32,8,48,8192,128,c --unpacked
