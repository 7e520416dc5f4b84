#!/bin/bash
# Session 5, device run 7: head dim 64 with the named-barrier ping-pong: Gluon configurations with and
# without the polynomial exp2 against the API's choice (the Triton kernel, or Gluon n128s3 causal > 8K).
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv,noheader
timeout 400 python3 scripts/ab_sm90.py --out $OUT --configs n128s2,n128s3 --rounds 15 \
  --reference dhpfa --cases ${CASES:-64:2048,64:8192,64:16384} 2>&1 | tail -10
