#!/bin/bash
# Session 23 run 9: the kvcache GPU tests with the new cache_leftpad test (decode steps split across programs and a
# 40-query chunk over left-padded caches, against float64).
#   bash scripts/session23_run9.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
t0=$(date +%s)
timeout 240 python3 -m pytest -q -m gpu tests/test_varlen.py -p no:cacheprovider -rf -k "kvcache" 2>&1 | tail -4
echo "total $(( $(date +%s) - t0 )) s"
