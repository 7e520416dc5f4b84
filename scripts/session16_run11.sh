#!/bin/bash
# Session 16, device run 11: run 10's tests again after the precompile fix (packed builds need a packed shape).
#   bash scripts/session16_run11.sh
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 200 python3 scripts/precompile.py --match sm90_ws --jobs 16 2>&1 | tail -2
timeout 300 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider \
  -k "(pk16 and (every_shipped or launched_binary)) or queries_of_grouped_heads" 2>&1 | tail -6
