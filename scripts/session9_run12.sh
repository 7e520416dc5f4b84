#!/bin/bash
# Session 9, device run 12: after the two-Q-buffer dispatch moved to 512 < seq_k <= 8K and the float64 test
# learned to expect the refusal at D=128 three consumers: those test cases, and the API's repeated calls and
# D=128 protocol-grid cells.
#   bash scripts/session9_run12.sh
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts
timeout 200 python3 -m pytest -m gpu -q -p no:cacheprovider tests/test_sm90_fwd.py -k "two-q-buffers" 2>&1 | tail -2
timeout 150 python3 -m pytest -m gpu -q -p no:cacheprovider tests/test_gpu.py -k "repeated_calls or protocol_grid and 128" \
  2>&1 | tail -2
