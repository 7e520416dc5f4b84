#!/bin/bash
# Session 8, device run 6: O's TMA store waited for before the buffer's next use instead of at once
# (_epilogue DEFER_WAIT, the persistent builds with O in a buffer of its own), against HEAD's kernel
# (out/ab/sm90_base.py = git show HEAD:src/dhpfa/kernels/sm90_fwd.py; carry out/ab), then its GPU tests.
#   bash scripts/session8_run6.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT/ab1" "$OUT/ab2"
timeout 200 python3 scripts/ab_sm90.py --out $OUT/ab1 --module base=out/ab/sm90_base.py --configs n128s2 \
  --cases 128:512,128:1024,128:2048,128:16384 --rounds 12 --reference base 2>&1 | grep -vE "^correctness" | tail -12
timeout 120 python3 scripts/ab_sm90.py --out $OUT/ab2 --module base=out/ab/sm90_base.py --configs m192n128s2_x3_nopp \
  --cases 64:8192,64:16384 --rounds 12 --reference base 2>&1 | grep -vE "^correctness" | tail -6
timeout 220 python3 -m pytest -m gpu -q -p no:cacheprovider tests/test_sm90_fwd.py tests/test_gpu.py \
  -k "persistent or three or (matches_float64 and bf16) or deterministic" > $OUT/pytest_run6.txt 2>&1
grep -E "passed|failed|FAILED|Error" $OUT/pytest_run6.txt | tail -8
