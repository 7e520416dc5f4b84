#!/bin/bash
# Session 18, device run 10: the two-consumer packed build with two Q buffers (ppqd: the next tile's Q loaded during this
# one, as the prefill builds' Q_DOUBLE; D <= 128; compiled by the JIT here) against the shipped one (pp), interleaved.
# Needs docs/experiments/session18_packed_qdouble.diff applied (reverted after this run: negative).
#   bash scripts/session18_run10.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 150 python3 scripts/precompile.py --match pppk8 --jobs 16 2>&1 | tail -1
timeout 400 python3 scripts/packed_queries.py --out $OUT/qd --rounds 11 --no-peers --pp --ppqd --shapes \
  "16,32,8,64,4096,128,c;32,32,8,33,2048,128,c;32,32,8,17,4096,128,c;64,28,4,12,2048,128,c;48,32,8,20,2048,96;16,32,8,32,4096,64,c;64,28,4,12,2048,64,c;32,16,2,28,1024,128;8,24,4,33,700,96;16,128,8,57,3000,128,c;48,10,2,14,8192,96,c" \
  2>&1 | grep -E "^\(|Error"
