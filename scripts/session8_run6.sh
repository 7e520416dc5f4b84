#!/bin/bash
# Session 8, device run 6: O's TMA store waited for before the buffer's next use instead of at once
# (_epilogue DEFER_WAIT, the persistent builds with O in a buffer of its own), against HEAD's kernel
# (out/ab/sm90_base.py = git show HEAD:src/dhpfa/kernels/sm90_fwd.py; carry out/ab), then its GPU tests.
#   bash scripts/session8_run6.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
bash scripts/ab_defer_wait.sh
timeout 220 python3 -m pytest -m gpu -q -p no:cacheprovider tests/test_sm90_fwd.py tests/test_gpu.py \
  -k "persistent or three or (matches_float64 and bf16) or deterministic" > $OUT/pytest_run6.txt 2>&1
grep -E "passed|failed|FAILED|Error" $OUT/pytest_run6.txt | tail -8
