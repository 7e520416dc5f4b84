#!/bin/bash
# Session 29 run 7: n64s3 (the API's) against n64s3_qd at D=128 512 causal and not, back to back in graph replay and
# with L2 evicted between calls (scripts/l2_state_ab.py), 25 rounds.
#   bash scripts/session29_run7.sh   (device tool; writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
t0=$(date +%s)
timeout 400 python3 scripts/l2_state_ab.py --out "$OUT" --configs n64s3,n64s3_qd --cases 128:512 --rounds 25 2>&1 \
  | grep -v Warning | tail -4
echo "total $(( $(date +%s) - t0 )) s"
