#!/bin/bash
# Session 17, device run 10 (final kernel): memcheck and synccheck over the sanitizer child (packed cases of groups of
# 4 and 7 at every head dim), and the API-level GPU tests (odd shapes, one query, splits, packed queries and decode,
# determinism, protocol grid at S = 1K).
#   bash scripts/session17_run10.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 150 python3 scripts/precompile.py --match sm90_ws --jobs 16 2>&1 | tail -1
SAN_LIMIT=120 bash scripts/sanitize_child.sh
timeout 400 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider \
  -k "not every_shipped and not launched_binary and not cached_launch" 2>&1 | tail -3
