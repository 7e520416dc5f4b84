#!/bin/bash
# Session 14, device run 6: SPLIT_KV_ROWS is the default (meetings move only the tile's rows below SEQ_Q: new SASS for
# every split build). Checks: split_kv_check over 2/4/8/16
# parts (float64, determinism), every split variant's GPU tests (float64, full grid, launched == audited, cached ==
# JIT) and the API tests that reach them, memcheck and synccheck over the sanitizer child.
#   bash scripts/session14_run6.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 150 python3 scripts/split_kv_check.py --out $OUT --builds splits 2>&1 | grep -E "FAIL|FAILURES" | tail -5
timeout 280 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider \
  -k "kv2ov or kv4ov or kv8ov or kv16ov or split_the_keys_across or one_query_gqa" 2>&1 | tail -3
SAN_LIMIT=150 bash scripts/sanitize_child.sh
