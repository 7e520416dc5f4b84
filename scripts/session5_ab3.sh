#!/bin/bash
# Session 5, device run 3: the A/B again with a random kernel order per round (run 2 showed a bias by
# position), speedups per round against HEAD~3's kernel ("base").   bash scripts/session5_ab3.sh
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader
timeout ${AB_LIMIT:-400} python3 scripts/ab_sm90.py --out $OUT --configs n128s2,n128s3,n64s2 --no-correctness \
  --module base=out/ab/sm90_base.py --module split=out/ab/sm90_split.py --module turns=out/ab/sm90_turns.py \
  --reference base --cases ${CASES:-64:2048,64:16384,128:2048,128:16384,256:2048,256:16384} 2>&1 | tail -14
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv,noheader
