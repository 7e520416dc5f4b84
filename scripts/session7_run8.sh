#!/bin/bash
# Session 7, device run 8: host time per call with and without the API's call plans, same process
# (scripts/host_overhead.py), then the API-level GPU tests not run since the plans landed.
#   bash scripts/session7_run8.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
timeout 90 python3 scripts/host_overhead.py --out $OUT 2>&1 | tail -9
timeout 300 python3 -m pytest tests/test_gpu.py tests/test_envelope.py tests/test_tune.py -m gpu -q -p no:cacheprovider \
  -k "head_dims or envelope or tune or repeated" 2>&1 | tail -3
