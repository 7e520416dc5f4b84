#!/bin/bash
# Session 14, device run 7: timing after run 6's builds. Packed decode through the API beside the SDPA backends
# (enable_gqa=True) at D=64/128/256; counters through the API at a packed call (kv8, rows below SEQ_Q).
#   bash scripts/session14_run7.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 150 python3 scripts/decode_probe.py --out $OUT/gqa --rounds 7 --shapes \
  "1,32,4096,128,8;1,32,16384,128,8;2,32,8192,128,8;8,32,8192,128,8;8,32,8192,128,1;1,32,32768,128,1;1,32,8192,64,8;4,32,8192,64,1;1,16,8192,256,4;8,16,8192,256,4;1,8,32768,256,1" \
  2>&1 | grep "^("
COUNTERS_LIMIT=100 bash scripts/counters_batch.sh "1,32,1,128,8192,8" "1,32,1,64,16384,2" 2>&1 | grep -E "==|work_identical|kernels|dram"
