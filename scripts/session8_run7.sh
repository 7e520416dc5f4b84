#!/bin/bash
# Session 8, device run 7: run 6's A/B again (the base copy now imports dhpfa.kernels absolutely), then every
# GPU test at HEAD in five parallel pytest processes (scripts/session7_run2.sh).
#   bash scripts/session8_run7.sh   (writes under $OUT; carry out/ab)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
bash scripts/ab_defer_wait.sh
PYTEST_LIMIT=${PYTEST_LIMIT:-300} bash scripts/session7_run2.sh
