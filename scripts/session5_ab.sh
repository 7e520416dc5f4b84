#!/bin/bash
# Session 5, device run 1: GPU tests of the Gluon kernel (K/V barriers in allocations of their own, the
# polynomial exp2), then the A/B of the working tree's kernel against HEAD's copy (out/ab/sm90_base.py).
#   bash scripts/session5_ab.sh   (on the device; writes under $OUT)
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader
echo "== pytest (gpu): ctmath, Gluon kernel persistent configurations"
timeout ${PYTEST_LIMIT:-240} python3 -m pytest tests/test_ctmath.py tests/test_sm90_fwd.py -m gpu -q -p no:cacheprovider \
  -k "exp2 or persistent" 2>&1 | grep -E "passed|failed|Error|error|assert" | tail -20
echo "== A/B"
timeout ${AB_LIMIT:-330} python3 scripts/ab_sm90.py --out $OUT --module base=out/ab/sm90_base.py ${AB_ARGS} 2>&1 | tail -40
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv,noheader
