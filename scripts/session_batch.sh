#!/bin/bash
# One device call: GPU tests, Gluon kernel correctness per configuration (each in its own process with a
# time limit, so a hang costs one configuration), speed of the configurations that passed, envelope study.
#   bash scripts/session_batch.sh   (on the device; writes under $OUT)
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv,noheader
if [ -n "$RUN_PYTEST" ]; then
  timeout ${PYTEST_LIMIT:-200} python3 -m pytest tests -m gpu -q -x -p no:cacheprovider $PYTEST_ARGS 2>&1 | tail -15
fi
passed=""
for c in ${CONFIGS:-pp_m128n128s2 pp_m128n128s2_p pp_m128n64s3_p pp_m128n64s2 pp_m128n64s2_p}; do
  if timeout ${CFG_LIMIT:-90} python3 scripts/sm90_check.py --out $OUT/sm90 --configs $c --no-speed 2>&1 | tail -6; then
    passed="$passed,$c"
  else
    echo "config $c: FAILED or timed out"
  fi
done
if [ -n "$passed" ] && [ -z "$NO_SPEED" ]; then
  timeout ${SPEED_LIMIT:-240} python3 scripts/sm90_check.py --out $OUT --configs ws_m128n128s2$passed --no-correctness \
    ${CASES:+--cases $CASES} 2>&1 | tail -12
fi
if [ -n "$RUN_ENVELOPE" ]; then
  timeout ${ENV_LIMIT:-200} python3 scripts/envelope_tail.py --out $OUT 2>&1 | tail -30
fi
