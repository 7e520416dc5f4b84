#!/bin/bash
# Session 8, device run 8: (1) the Gluon one-consumer build at a 128-register launch limit (two CTAs per SM)
# at the short grid cells against the API's choice; (2) every shipped variant on a full grid
# (tests/test_gpu.py::test_every_shipped_variant_on_a_full_grid, two processes); (3) the envelope's leak
# test with the new default calibration (rounds=1).   bash scripts/session8_run8.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT/ab"
timeout 200 python3 scripts/ab_sm90.py --out $OUT/ab --configs m64n64s3_x1_r128,m64n64s2_x1_r128,m64n64s2_x1 \
  --cases 64:512,64:1024,128:512,128:1024,128:2048 --rounds 10 --reference dhpfa 2>&1 \
  | grep -vE "^correctness .*done" | tail -14
run() { name=$1; shift; timeout 200 python3 -m pytest -m gpu -q -p no:cacheprovider "$@" > $OUT/pytest_$name.txt 2>&1; }
run full_bf16 tests/test_gpu.py -k "full_grid and bf16" &
run full_fp16 tests/test_gpu.py -k "full_grid and fp16" &
wait
for f in $OUT/pytest_*.txt; do echo "== $f"; grep -E "passed|failed|FAILED|Error|rel err" $f | tail -6; done
timeout 150 python3 -m dhpfa leak --envelope --samples 10000 --shape 4,16,2048,128 --out $OUT/leak 2>&1 | tail -5
