#!/bin/bash
# Session 14, device run 1: one query per sequence with grouped heads runs each group's query heads as rows of one
# tile (api.pack_gqa). GPU tests of the packing and of the rules it passes through, then decode timing beside the
# SDPA backends (enable_gqa=True) and the API's choice before the change ("unpacked", launched directly).
#   bash scripts/session14_run1.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 300 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider -x \
  -k "one_query_gqa or one_query_tile" 2>&1 | tail -4
timeout 60 python3 -m pytest -q -m gpu tests/test_api.py tests/test_plans.py tests/test_tune.py -p no:cacheprovider \
  2>&1 | tail -2
timeout 150 python3 scripts/decode_probe.py --out $OUT/gqa --rounds 7 \
  --shapes "1,32,4096,128,8;8,32,8192,128,8;32,32,8192,128,8;8,64,8192,128,8;8,32,8192,128,1;16,32,8192,64,8;8,28,16384,128,4"
timeout 60 python3 scripts/decode_probe.py --out $OUT/gqa_causal --rounds 7 --causal --shapes "8,32,8192,128,8;16,32,8192,64,8"
