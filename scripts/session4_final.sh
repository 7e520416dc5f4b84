#!/bin/bash
# Session 4, device run 5: the new defaults (D=128 causal S<=512 64-key blocks, D=256 persistent everywhere
# and Gluon for causal S<=512, D=64 causal S>8K Gluon) against float64 on the protocol grid and odd shapes,
# then the bf16 grid beside the SDPA backends.     bash scripts/session4_final.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv,noheader
echo "== pytest: protocol grid and odd shapes on the new defaults"
timeout 200 python3 -m pytest tests/test_gpu.py -k "protocol_grid or head_dims" -m gpu -q -p no:cacheprovider 2>&1 \
  | grep -E "passed|failed|Error|error|assert" | tail -12
echo "== bench bf16 grid"
timeout 360 python3 -m dhpfa bench --dtypes bf16 --out $OUT/bench 2>&1 | grep -v "^  \[\|^speed\|^ *[0-9]*/" | tail -60
