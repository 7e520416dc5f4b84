#!/bin/bash
# Session 13, device run 13: 65-128 queries per head at D=64 past the short-tile lengths take the 128-row two-consumer
# tiles (variants.SM90_TWO_TILES; run 12 measured non-causal). GPU tests of the rule, then causal (bottom-right) timing
# of the builds, and the API non-causal after the change.
#   bash scripts/session13_run13.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 120 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider -k "one_query_tile" 2>&1 | tail -3
for sq in 96 128; do
  timeout 60 python3 scripts/decode_probe.py --out $OUT/q${sq}c --queries $sq --rounds 7 --causal \
    --tiles triton_m64n64s3_tma,gluon_n128s2,gluon_x3 --shapes "16,32,16384,64;8,16,16384,64"
done
timeout 60 python3 scripts/decode_probe.py --out $OUT/q128 --queries 128 --rounds 7 --tiles gluon_n128s2,gluon_x3 \
  --shapes "16,32,8192,64"
