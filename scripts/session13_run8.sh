#!/bin/bash
# Session 13, device run 8: decode-like calls with more programs than SMs (one query per sequence), where the API runs
# variants.select's long-sequence builds (192-row tiles at D=64, 128-row at D=128: one valid row each), beside the
# 64-row short tiles launched directly. Graph replay, interleaved rounds (decode_probe.py --tiles).
#   bash scripts/session13_run8.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 250 python3 scripts/decode_probe.py --out $OUT --rounds 7 --tiles triton_m64n64s3_tma,triton_m64n64s3_ptr,gluon_n128s2 \
  --shapes "32,32,8192,64;16,32,16384,64;64,16,8192,64;16,16,16384,128;32,16,8192,128"
