#!/bin/bash
# Session 14, device run 3: eight and sixteen programs per tile are shipped (variants.SM90_FEW_PROGRAMS_SPLIT_KV8/16,
# where that many times the grid fits half of the SMs). GPU tests of the split rules, the packed decode path and the
# few-program rules; then decode timing through the API beside the SDPA backends (enable_gqa=True) and the API's
# choice before packing ("unpacked").
#   bash scripts/session14_run3.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 330 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider \
  -k "split_the_keys_across or one_query_gqa or one_query_tile or few_program or top_left" 2>&1 | tail -4
timeout 60 python3 -m pytest -q -m gpu tests/test_api.py tests/test_plans.py tests/test_tune.py tests/test_measure.py \
  -p no:cacheprovider 2>&1 | tail -2
timeout 150 python3 scripts/decode_probe.py --out $OUT/gqa --rounds 7 --shapes \
  "1,32,4096,128,8;1,32,16384,128,8;2,32,8192,128,8;8,32,8192,128,8;32,32,8192,128,8;8,32,8192,128,1;1,32,32768,128,1;1,32,8192,64,8;4,32,8192,64,1" \
  2>&1 | grep "^("
