#!/bin/bash
# Session 10, device run 16: the quick grid (S = 1K, 4K, 16K; D = 64, 128, 256; causal and not) at sustained
# clocks: every kernel's batch per round at least 250 ms (`dhpfa bench --batch-ms 250`), against run 10's grid
# (25 ms batches), where the same D=128 16K shape read 648 and 617 sustained in run 12.
#   bash scripts/session10_run16.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
timeout 500 python3 -m dhpfa bench --dtypes bf16 --quick --parts grid --batch-ms 250 --out $OUT/bench 2>&1 \
  | grep -v "^\[" | tail -22
