#!/bin/bash
# Session 9: GPU tests (TESTS, default tests/test_sm90_fwd.py tests/test_gpu.py), one pytest process per -k expression,
# in parallel (compiling dominates), each with a time limit.
#   bash scripts/session9_tests.sh SECONDS "EXPR1" ["EXPR2" ...]   (writes $OUT/pytest_<n>.txt)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
limit=$1; shift
n=0
for expr in "$@"; do
  n=$((n + 1))
  timeout $limit python3 -m pytest -m gpu -q -p no:cacheprovider ${TESTS:-tests/test_sm90_fwd.py tests/test_gpu.py} \
    -k "$expr" > $OUT/pytest_$n.txt 2>&1 &
done
wait
for i in $(seq 1 $n); do echo "-- pytest $i: $(tail -1 $OUT/pytest_$i.txt)"; grep -E "^FAILED|^ERROR" $OUT/pytest_$i.txt | head -5; done
