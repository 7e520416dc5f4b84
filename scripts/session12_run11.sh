#!/bin/bash
# Session 12, device run 11: SDPA's top-left causal chooses by the keys rows can see (api._new_plan): the GPU test and
# graph-replay timing against the split that seq_k alone would pick (scripts/topleft_causal.py).
#   bash scripts/session12_run11.sh
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 150 python3 -m pytest -q -m gpu tests/test_gpu.py -k "top_left or split_the_keys_across" -p no:cacheprovider \
  2>&1 | tail -2
timeout 100 python3 scripts/topleft_causal.py
