#!/bin/bash
# Session 24 run 1: the whole bench at HEAD (no kernel has changed since session 23): the 16K-token grid (bf16, 25 ms
# batches, interleaved rounds), the S <= 1K cells in graph replay, the small shapes and long context, beside the SDPA
# backends in the same run. The last whole grid was session 10's; issues 2 and 5 are judged on it.
#   bash scripts/session24_run1.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,power.limit --format=csv,noheader
t0=$(date +%s)
timeout 560 python3 -m dhpfa bench --dtypes bf16 --out $OUT/bench > $OUT/bench.log 2>&1
echo "bench rc $? $(( $(date +%s) - t0 )) s"
grep -v "^\[" $OUT/bench.log | tail -90
