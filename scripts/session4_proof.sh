#!/bin/bash
# Session 4, device run 3: the envelope's calibration under full load vs under its own duty cycle, then
# every GPU test with the launch cache on.     bash scripts/session4_proof.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv,noheader
echo "== envelope: full-load vs duty-cycle calibration"
timeout 150 python3 scripts/envelope_duty.py --out $OUT 2>&1 | tail -10
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv,noheader
echo "== pytest -m gpu (all)"
timeout ${PYTEST_LIMIT:-400} python3 -m pytest tests -m gpu -q -p no:cacheprovider 2>&1 \
  | grep -E "passed|failed|Error|error|assert" | tail -20
