#!/bin/bash
# Session 9, device run 9: the grid with the D=128 two-Q-buffer build (`dhpfa bench --dtypes bf16`, interleaved
# rounds), then hardware counters of that build through the API (5 input classes, 5 repeats).
#   bash scripts/session9_run9.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
timeout 340 python3 -m dhpfa bench --dtypes bf16 --out $OUT/bench 2>&1 | grep -v "^\[" | tail -60
COUNTERS_LIMIT=150 bash scripts/counters_batch.sh "8,16,1024,128"
