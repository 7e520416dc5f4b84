#!/bin/bash
# Session 10, device run 10: the grid with the deferred O store at D=128 S=512 (`dhpfa bench --dtypes bf16`),
# hardware counters of that build through the API (8,16,512,128: 5 input classes, 5 repeats), and the floor
# under a small call in graph replay (scripts/launch_floor.py).
#   bash scripts/session10_run10.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
timeout 100 python3 scripts/launch_floor.py --out $OUT/floor 2>&1 | tail -6
COUNTERS_LIMIT=150 bash scripts/counters_batch.sh "8,16,512,128"
timeout 360 python3 -m dhpfa bench --dtypes bf16 --out $OUT/bench 2>&1 | grep -v "^\[" | tail -60
