#!/bin/bash
# Session 15, device run 3: the D=256 split builds with 8-64 programs per tile (run 1's split_kv_check reached 2 and 4
# before its time limit): float64 and determinism; counters through the API (5 classes x 5 repeats) at packed D=256
# calls of 16 and 64 parts; the timing-leak test at the 16-part call.
#   bash scripts/session15_run3.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 330 python3 scripts/split_kv_check.py --out $OUT --builds d256 --parts 8,16,32,64 2>&1 \
  | grep -E "FAIL|determinism|FAILURES" | tail -12
COUNTERS_LIMIT=100 bash scripts/counters_batch.sh "1,8,1,256,8192,1" "1,8,1,256,32768,1" 2>&1 \
  | grep -E "==|work_identical|kernels|\(|'"
timeout 100 python3 -m dhpfa leak --shape 1,8,1,256,8192,1 --samples 2000 --out $OUT/leak 2>&1 | tail -3
