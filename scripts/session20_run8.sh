#!/bin/bash
# Session 20, device run 8 (final commit): the varlen and API GPU tests after the refactor (SASS unchanged, Python
# changed), and the grouped-heads rule between 8 and 64 queries per sequence (VARLEN_GROUP_MAX_Q).
#   bash scripts/session20_run8.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 150 python3 scripts/precompile.py --match varlen --jobs 16 2>&1 | tail -1
timeout 200 python3 scripts/precompile.py --match sm90_ws --match bf16 --match d128 --jobs 16 2>&1 | tail -1
timeout 300 python3 -m pytest -q -m gpu tests/test_varlen.py tests/test_gpu.py -p no:cacheprovider \
  -k "varlen or gpu_ or flash_attn_order or repeated_calls_of_one_signature or torch_compile or bitwise" 2>&1 | tail -3
timeout 200 python3 scripts/varlen_bench.py --out "$OUT/varlen" --rounds 7 --leak-samples 0 --parts decode \
  --decode-shapes "8,32,8,128,8;8,32,8,128,16;8,32,8,128,32;32,32,8,128,16;32,32,4,128,32;8,16,2,64,16" 2>&1 | tail -8
