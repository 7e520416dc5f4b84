#!/bin/bash
# Session 7, device run 9: hardware counters (ncu --clock-control none, 5 input classes and 5 repeats of one
# input, through the API) for this session's new builds: the Gluon one-consumer few-program tiles
# (1,8,512,128), and the causal builds that skip masked blocks (SKIP_MASKED): D=128 S=512 (64-key blocks)
# and D=256 4K.   bash scripts/session7_run9.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
bash scripts/counters_batch.sh "1,8,512,128" "32,16,512,128 --causal" "2,8,4096,256 --causal"
