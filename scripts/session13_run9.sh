#!/bin/bash
# Session 13, device run 9: decode-like calls take the 64-row short tiles at D=64 (variants.SM90_ONE_TILE). GPU tests of
# the new rule, then the API beside the builds launched directly, non-causal (beside the SDPA backends) and causal
# (bottom-right: the API and the builds only).
#   bash scripts/session13_run9.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 150 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider \
  -k "one_query_tile or split_keys_inside or top_left" 2>&1 | tail -2
timeout 120 python3 scripts/decode_probe.py --out $OUT/full --rounds 7 --tiles triton_m64n64s3_tma,gluon_x3 \
  --shapes "32,32,8192,64;8,32,4096,64;4,64,16384,64"
timeout 120 python3 scripts/decode_probe.py --out $OUT/causal --rounds 7 --causal --tiles triton_m64n64s3_tma,gluon_x3 \
  --shapes "32,32,8192,64;4,64,16384,64"
