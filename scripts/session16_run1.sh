#!/bin/bash
# Session 16, device run 1: D=96 / 192 prefill through D=128 / 256's Gluon builds, padded (variants.PADDED_HEAD_DIMS).
# The grid and small shapes beside the Triton tiles the API ran before and the SDPA backends, then the API at odd
# shapes (float64, every head dim's test at D=96 / 192) and the 16K-token determinism test.
#   bash scripts/session16_run1.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 330 python3 scripts/padded_prefill.py --out $OUT 2>&1 | grep -E "^bf16|Error|error" | head -80
timeout 230 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider \
  -k "(head_dims_odd_shapes and (-96- or -192-)) or bitwise_deterministic" 2>&1 | tail -4
