#!/bin/bash
# Session 9: the GPU tests of the Gluon builds (split keys, persistent, three consumers, float64 per variant,
# determinism, every variant on a full grid).   bash scripts/session9_tests.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
timeout ${1:-300} python3 -m pytest -m gpu -q -x -p no:cacheprovider tests/test_sm90_fwd.py tests/test_gpu.py \
  -k "${2:-split or persistent or three or matches_float64 or deterministic or full_grid}" > $OUT/pytest.txt 2>&1
grep -E "passed|failed|FAILED|Error" $OUT/pytest.txt | tail -8
