#!/bin/bash
# Session 16, device run 7: unspecialised against specialised shape arguments through the API (graph replay, grid and
# decode shapes; spec_ab.py), then the API's GPU tests at odd shapes, one query, splits and packed decode for every
# head dim, and launched == audited for every Gluon variant.
#   bash scripts/session16_run7.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 200 python3 scripts/precompile.py --match sm90_ws --jobs 16 2>&1 | tail -2
timeout 150 python3 scripts/spec_ab.py --out $OUT 2>&1 | grep "^("
timeout 230 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider \
  -k "head_dims_odd_shapes or split_the_keys_across or one_query_gqa or deterministic or (sm90_ws and launched_binary)" 2>&1 | tail -3
