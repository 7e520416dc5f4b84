#!/bin/bash
# Session 9, device run 6: the GPU tests that call the API (its call plans now keep the launcher from
# dispatch.launch_keeping_launcher), the launch cache, the tuner and the bench, in parallel processes.
#   bash scripts/session9_run6.sh   (writes under $OUT)
TESTS="tests/test_gpu.py tests/test_plans.py tests/test_launch_cache.py tests/test_tune.py tests/test_measure.py tests/test_api.py" \
  bash scripts/session9_tests.sh 300 "protocol_grid" "head_dims or bitwise" \
  "not protocol_grid and not head_dims and not bitwise and not every_shipped_variant and not launched_binary"
