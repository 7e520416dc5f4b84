#!/bin/bash
# Session 16, device run 3: evidence for D=96 / 192 on D=128 / 256's Gluon builds, padded: hardware counters through
# the API (5 input classes, 5 repeats) on grids of more programs than SMs, and a dudect test at D=96.
#   bash scripts/session16_run3.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
COUNTERS_LIMIT=200 bash scripts/counters_batch.sh "4,16,1024,96" "2,10,2048,192 --causal"
timeout 150 python3 -m dhpfa leak --shape 4,16,1024,96 --samples 2000 --out $OUT/leak 2>&1 | tail -4
