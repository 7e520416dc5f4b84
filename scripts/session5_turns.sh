#!/bin/bash
# Session 5, device run 13: ping-pong on named barriers against two consumers without turns (run 12 read
# the latter 1-4% faster at D=128), 20 rounds, random order, D=128 and D=256.
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv,noheader
timeout 420 python3 scripts/ab_sm90.py --out $OUT --configs n128s2,n128s2_nopp,n64s2,n64s2_nopp \
  --rounds 20 --reference dhpfa --cases ${CASES:-128:2048,128:8192,128:16384,256:2048,256:16384} 2>&1 | tail -12
