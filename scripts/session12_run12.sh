#!/bin/bash
# Session 12, device run 12: after the review mend that changed the split variants' SASS (_split_kv_tile shared by
# producer and consumer; _split_kv_unit without its two-part special case): their GPU tests, correctness and
# determinism (scripts/split_kv_check.py), memcheck and synccheck.
#   bash scripts/session12_run12.sh
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 200 python3 -m pytest -q -m gpu tests/test_gpu.py -k "kv2 or kv4 or split_the_keys_across or top_left" \
  -p no:cacheprovider 2>&1 | tail -2
timeout 120 python3 scripts/split_kv_check.py --out /tmp/skv 2>&1 | grep -E "FAIL|determinism|FAILURES"
bash scripts/sanitize_child.sh
