#!/bin/bash
# Prepared at the end of session 7 for the next session's first device run (not yet run): every GPU test at
# HEAD (five pytest processes in parallel, as session 7 run 2), then the API's choice in graph replay where
# session 7's last rule (causal grids of up to twice the SM count split the keys; run 14) was never run
# through the API, beside the candidates.   bash scripts/session8_first.sh   (writes under $OUT)
PYTEST_LIMIT=${PYTEST_LIMIT:-330} bash scripts/session7_run2.sh  # run 2 took 184 s of wall time
export PYTHONPATH=$PWD/src:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT/causal2x"
timeout 200 python3 scripts/small_tiles.py --out $OUT/causal2x --preset splitk --rounds 9 \
  --shapes "2,8,1024,64;2,4,2048,64;2,4,2048,128" 2>&1 | grep -E "==|dhpfa|sdpa|x2sk|w4s" | tail -50
