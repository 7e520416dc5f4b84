#!/bin/bash
# Session 14, device run 4: evidence for the packed decode path and the 8/16-part splits: memcheck and synccheck over
# the sanitizer child (new cases: 8 programs at 4,397 keys; one query, 4 heads over 2, 8,291 keys: sixteen parts),
# counters through the API (5 classes x 5 repeats) at a packed call per new build, and the timing-leak test.
#   bash scripts/session14_run4.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
SAN_LIMIT=200 bash scripts/sanitize_child.sh
COUNTERS_LIMIT=100 bash scripts/counters_batch.sh "1,32,1,128,8192,8" "1,32,1,64,16384,2" 2>&1 | grep -E "==|work_identical|kernels|\(|'"
timeout 100 python3 -m dhpfa leak --shape 1,32,1,128,8192,8 --samples 2000 --out $OUT/leak 2>&1 | tail -3
