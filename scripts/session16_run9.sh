#!/bin/bash
# Session 16, device run 9: (unspecialised shape arguments) the protocol grid and the few-program / top-left tests
# through the API, and hardware counters at a packed decode shape (D=128, 8 parts: the workspace merge).
#   bash scripts/session16_run9.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 200 python3 scripts/precompile.py --match sm90_ws --jobs 16 2>&1 | tail -2
timeout 250 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider \
  -k "protocol_grid or few_program or top_left or one_tile_per_head or repeated_calls" 2>&1 | tail -3
COUNTERS_LIMIT=150 bash scripts/counters_batch.sh "1,32,1,128,8192,8" 2>&1 | head -8
