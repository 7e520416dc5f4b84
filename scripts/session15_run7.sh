#!/bin/bash
# Session 15, device run 7: the rest of the D=96 / 192 split builds' float64 and determinism checks (run 6 reached its
# time limits at 8 / 2 parts), memcheck and synccheck over the sanitizer child (its split cases now take every head
# dim), counters at a packed D=96 call.
#   bash scripts/session15_run7.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 150 python3 scripts/split_kv_check.py --out $OUT --builds d192 --parts 16,64 2>&1 \
  | grep -E "FAIL|determinism|FAILURES" | tail -6
timeout 90 python3 scripts/split_kv_check.py --out $OUT --builds d96 --parts 64 2>&1 \
  | grep -E "FAIL|determinism|FAILURES" | tail -4
SAN_LIMIT=120 bash scripts/sanitize_child.sh
COUNTERS_LIMIT=80 bash scripts/counters_batch.sh "1,32,1,96,8192,8" 2>&1 | grep -E "==|work_identical|kernels|\(|'"
