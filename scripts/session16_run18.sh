#!/bin/bash
# Session 16, device run 18 (after the review): precompile through audit.placeholder_launch, the GPU tests whose check
# moved into _assert_heads_match, and one shape of each script that now uses small_tiles.patched_call.
#   bash scripts/session16_run18.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 200 python3 scripts/precompile.py --match sm90_ws --jobs 16 2>&1 | tail -1
timeout 200 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider \
  -k "every_shipped_variant_matches_float64 or (pk16 and full_grid) or queries_of_grouped" 2>&1 | tail -3
timeout 60 python3 scripts/packed_queries.py --out $OUT --no-peers --parts 4,8 --rounds 5 --shapes "1,64,8,8,32768,128,c" 2>&1 | grep -E "^\(|Error"
timeout 60 python3 scripts/decode_probe.py --out $OUT/dp --rounds 5 --parts 0,8 --shapes "1,32,8192,128,8" 2>&1 | grep -E "^\(|Error"
timeout 90 python3 scripts/spec_ab.py --out $OUT --rounds 5 --shapes "1,32,1,8192,128,8" 2>&1 | grep -E "^\(|Error"
