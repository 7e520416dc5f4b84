#!/bin/bash
# Session 29 run 4: evidence for a call past the 65,535-program grid axis (batch slices): hardware counters through
# the API (5 input classes, 5 repeats of one input; two launches per call) and a dudect run at (2052,32,64,64) causal.
#   bash scripts/session29_run4.sh   (device tool; writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
t0=$(date +%s)
COUNTERS_LIMIT=240 COUNTERS_TAIL=4 bash scripts/counters_batch.sh "2052,32,64,64 --causal"
echo "counters $(( $(date +%s) - t0 )) s"
timeout $(( 560 - ($(date +%s) - t0) )) python3 -m dhpfa leak --shape 2052,32,64,64 --causal --samples ${SAMPLES:-1000} \
    --out $OUT/leak 2>&1 | grep -v "^\[" | tail -8
echo "total $(( $(date +%s) - t0 )) s"
