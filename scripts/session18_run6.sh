#!/bin/bash
# Session 18, device run 6: (1) the two-consumer packed build at D=64 / 32 (not shipped: the JIT compiles it here) against
# the API's 64-row packed tiles at 9-32 queries on grids where D >= 96 takes it; (2) counters (5 classes x 5 repeats)
# and dudect at a causal shape of the shipped two-consumer packed build.
#   bash scripts/session18_run6.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 150 python3 scripts/precompile.py --match pk8 --jobs 16 2>&1 | tail -1
timeout 240 python3 scripts/packed_queries.py --out $OUT/d64 --rounds 9 --pp --no-peers --shapes \
  "16,32,8,32,4096,64,c;32,32,8,17,4096,64,c;64,28,4,12,2048,64,c;48,32,8,20,2048,64;32,40,8,16,4096,32,c;16,32,8,48,4096,64,c" \
  2>&1 | grep -E "^\(|Error"
COUNTERS_LIMIT=170 bash scripts/counters_batch.sh "16,32,32,128,4096,8 --causal" 2>&1
timeout 150 python3 -m dhpfa leak --shape 16,32,32,128,4096,8 --causal --samples 2000 --out $OUT/leak 2>&1 | tail -4
