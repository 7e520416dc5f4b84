#!/bin/bash
# Session 5, device run 12: more Gluon tile configurations for D=64 and D=128 (stages, 64-key blocks,
# consumers without turns) against the API's choice, random order per round.
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv,noheader
timeout 420 python3 scripts/ab_sm90.py --out $OUT --configs n128s2,n128s3,n64s3,n64s4,n128s4,n128s2_nopp \
  --no-correctness --rounds 12 --reference dhpfa --cases ${CASES:-64:4096,64:16384,128:4096,128:16384} 2>&1 | tail -9
