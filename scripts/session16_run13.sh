#!/bin/bash
# Session 16, device run 13: after the test_gpu review (helpers _poisoned_call, _assert_repeats_and_replays_equal): the
# split, one-query and packed-query API tests at every head dim, and determinism.
#   bash scripts/session16_run13.sh
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 200 python3 scripts/precompile.py --match sm90_ws --jobs 16 2>&1 | tail -1
timeout 300 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider \
  -k "split_the_keys_across or one_query_gqa or queries_of_grouped or deterministic or torch_compile" 2>&1 | tail -3
