#!/bin/bash
# Session 13, device run 11: evidence for the unpaired causal split keys (`...-causal-m64n64w4s2x2skup`): counters
# through the API at (1,2,4096,D) causal (128 programs: split keys, one tile per program) and the timing test there
# (dhpfa leak --causal, new).
#   bash scripts/session13_run11.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
COUNTERS_LIMIT=120 bash scripts/counters_batch.sh "1,2,4096,64 --causal" "1,2,4096,128 --causal" 2>&1 | \
  grep -E "==|work_identical|kernels|dram"
timeout 150 python3 -m dhpfa leak --shape 1,2,4096,64 --causal --samples 2000 --out $OUT/leak 2>&1 | tail -4
