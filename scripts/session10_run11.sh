#!/bin/bash
# Session 10, device run 11: long context with every (kernel, length) pair in the same interleaved rounds
# (bench.long_context now; run 10 timed one length after another and read 128K at 0.91 of a 16K row that ran
# 3% above the grid's same cell), and the GPU tests of the bench harness. Run twice: 25 ms batches (the
# first version), then 250 ms batches at every length (bench.LONG_BATCH_MS: every length at sustained clocks).
#   bash scripts/session10_run11.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
timeout 120 python3 -m pytest -m gpu -q -p no:cacheprovider tests/test_measure.py 2>&1 | tail -2
timeout 420 python3 -m dhpfa bench --dtypes bf16 --parts long --out $OUT/long 2>&1 | grep -v "^\[" | tail -8
