#!/bin/bash
# Session 12, device run 10: the GPU test files not run to completion this session (runs 4 and 6 hit their limit):
# tests/test_sm90_fwd.py, test_plans.py, test_tune.py, test_measure.py.
#   bash scripts/session12_run10.sh
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 520 python3 -m pytest -q -m gpu tests/test_sm90_fwd.py tests/test_plans.py tests/test_tune.py tests/test_measure.py \
  -p no:cacheprovider -x 2>&1 | tail -4
