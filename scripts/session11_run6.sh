#!/bin/bash
# Session 11, device run 6: evidence for the few-program 64x128 Gluon tiles (SM90_FEW_PROGRAMS_MID): hardware
# counters through the API at (1,8,512,64) and (1,8,512,128) (5 input classes, 5 repeats), and the dudect-style
# timing test at (1,8,512,64) (2,000 samples per class).
#   bash scripts/session11_run6.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
COUNTERS_LIMIT=150 bash scripts/counters_batch.sh "1,8,512,64" "1,8,512,128"
timeout 200 python3 -m dhpfa leak --shape 1,8,512,64 --samples 2000 --out $OUT/leak 2>&1 | tail -12
