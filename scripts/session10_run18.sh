#!/bin/bash
# Session 10, device run 18: D=64 at 1K and 4K at sustained clocks (250 ms batches; run 17: the API's Triton
# tiles 4.3-4.6% behind cuDNN there): the Gluon builds (three consumers, n128s2 with two Q buffers) beside them.
# BATCH_MS=30 for the burst regime (run 18b).
#   bash scripts/session10_run18.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT/d64"
timeout 300 python3 scripts/ab_sm90.py --out $OUT/d64 --configs t_m64n64s3,m192n128s2_x3_nopp,n128s2_qd \
  --cases 64:1024,64:4096 --eager --rounds 9 --batch-ms ${BATCH_MS:-250} --reference tree/t_m64n64s3 --no-correctness 2>&1 \
  | grep -v "^correctness" | tail -5
