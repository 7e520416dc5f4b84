#!/bin/bash
# Session 19, device run 8 (review): the GPU test of flash-attn's order and packed layouts after it moved onto
# _assert_heads_match (every head of both sequences, the packed-kv call's own lse), with the API tests around it.
#   bash scripts/session19_run8.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 200 python3 scripts/precompile.py --match sm90_ws --match bf16 --match d128 --jobs 16 2>&1 | tail -1
timeout 300 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider \
  -k "flash_attn_order or repeated_calls_of_one_signature or two_consumer_packed_tiles_mask" 2>&1 | tail -3
