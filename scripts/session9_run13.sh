#!/bin/bash
# Session 9, device run 13: the tuner, call plans and bench GPU tests with the two-Q-buffer variants among
# the candidates, and the main job (`dhpfa`) on the GPU.
#   bash scripts/session9_run13.sh
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts
timeout 240 python3 -m pytest -m gpu -q -p no:cacheprovider tests/test_tune.py tests/test_plans.py tests/test_measure.py \
  2>&1 | tail -2
timeout 120 python3 -m dhpfa 2>&1 | tail -8
