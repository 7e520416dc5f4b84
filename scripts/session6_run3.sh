#!/bin/bash
# Session 6, device run 3: GPU tests of the D=64 three-consumer dispatch (API grid cells at D=64, odd and
# long shapes for every head dim, launched == audited binary for D=64, the tuner's graph timing), then the
# A/B of three-consumer tiles at D=128 (192 rows, 64-key blocks) against n128s2.   bash scripts/session6_run3.sh
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader
echo "== pytest (gpu)"
timeout ${PYTEST_LIMIT:-300} python3 -m pytest tests/test_gpu.py tests/test_sm90_fwd.py tests/test_tune.py -m gpu -q \
  -p no:cacheprovider -k "(protocol_grid and D64) or head_dims or (launched_binary and d64) or deterministic or three or tune" \
  2>&1 | tee $OUT/pytest.txt | grep -E "passed|failed|Error|error|assert" | tail -12
echo "== A/B D=128"
timeout ${AB_LIMIT:-200} python3 scripts/ab_sm90.py --out $OUT --reference dhpfa \
  --configs n128s2,m192n64s2_x3_nopp,m192n64s3_x3_nopp,m192n64s3_x3 --cases 128:2048,128:16384 2>&1 | tail -6
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv,noheader
