#!/bin/bash
# Session 14, device run 10: 32 and 64 programs per tile shipped (variants.SM90_FEW_PROGRAMS_SPLIT_KV32/64). GPU tests
# of every kv32/kv64 variant (float64, full grid, launched == audited, cached == JIT) and of the split rules, then MQA
# decode at batch 1-2 through the API beside the SDPA backends.
#   bash scripts/session14_run10.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 240 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider \
  -k "kv32ov or kv64ov or split_the_keys_across or one_query_gqa" 2>&1 | tail -3
timeout 90 python3 scripts/decode_probe.py --out $OUT/mqa --rounds 7 --shapes \
  "1,32,32768,128,1;1,32,65536,128,1;2,32,16384,128,1;1,32,16384,64,1" 2>&1 | grep "^("
