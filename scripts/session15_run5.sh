#!/bin/bash
# Session 15, device run 5: memcheck over the sanitizer child with the D=32 split cases (run 4's reached its time
# limit), counters through the API (5 classes x 5 repeats) at a packed D=32 call of 64 parts and once more at run 3's
# D=256 16-part call (whose DRAM bytes read spread 768 across classes against 256 across repeats), and the
# timing-leak test at the D=32 call.
#   bash scripts/session15_run5.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
TOOLS=memcheck SAN_LIMIT=240 bash scripts/sanitize_child.sh
COUNTERS_LIMIT=100 bash scripts/counters_batch.sh "1,8,1,32,32768,1" "1,8,1,256,8192,1" 2>&1 \
  | grep -E "==|work_identical|kernels|\(|'"
timeout 100 python3 -m dhpfa leak --shape 1,8,1,32,32768,1 --samples 2000 --out $OUT/leak 2>&1 | tail -3
