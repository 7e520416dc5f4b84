#!/bin/bash
# Session 13, device run 10: run 9's two failing GPU cases were a wrong test (causal grids of up to twice the SMs take
# SM90_FEW_PROGRAMS_CAUSAL_2X where the short tiles would run: 150 programs at 4,500 keys did); the fixed test, then the
# GPU tests of the API, plans and tuner that the dispatch changes touch.
#   bash scripts/session13_run10.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 100 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider -k "one_query_tile" 2>&1 | tail -3
timeout 300 python3 -m pytest -q -m gpu tests/test_tune.py tests/test_plans.py tests/test_api.py -p no:cacheprovider \
  2>&1 | tail -3
timeout 150 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider \
  -k "repeated_calls or bitwise or torch_compile or head_dims_odd" 2>&1 | tail -3
