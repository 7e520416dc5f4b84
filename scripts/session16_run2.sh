#!/bin/bash
# Session 16, device run 2: the 42 new D=96 / 192 variants (D=128 / 256's Gluon builds, padded) one by one: float64 on
# poisoned outputs, the 16K-token grid with 10 queued calls, launched == audited; then memcheck and synccheck (the
# sanitizer child's Gluon cases now include D=96 / 192).
#   bash scripts/session16_run2.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 330 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider \
  -k "(d96 or d192) and sm90_ws and not kv and (every_shipped or launched_binary)" 2>&1 | tail -4
SAN_LIMIT=120 bash scripts/sanitize_child.sh
