#!/bin/bash
# Session 24 run 7: the varlen GPU tests on the final kernels (after variants.varlen_config and the removal of
# _kv_blocks' dead branch; the radix meetings reverted), under pytest-xdist (carry [".whl"], as session24_run6.sh).
#   bash scripts/session24_run7.sh   (writes under $OUT)
export PYTHONPATH=/tmp/xd:$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
for w in .whl/*.whl; do python3 -m zipfile -e "$w" /tmp/xd; done
t0=$(date +%s)
timeout 150 python3 scripts/precompile.py --jobs 16 --match varlen 2>&1 | tail -1
timeout 300 python3 -m pytest -q -m gpu -n 12 tests/test_varlen.py -p no:cacheprovider -rf > "$OUT/varlen_tests.log" 2>&1
echo "tests rc $? $(( $(date +%s) - t0 )) s"; tail -4 "$OUT/varlen_tests.log"
