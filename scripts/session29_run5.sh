#!/bin/bash
# Session 29 run 5: D=256 two-consumer builds with 32-key blocks (O in a buffer of its own, so the next tile's Q load
# need not wait for the O store) against the API's n64s2 (O staged in Q's tile): correctness on odd shapes, then
# the 16K-token grid at 512-4K and 16K, 25 rounds, graph replay up to 2K.
#   bash scripts/session29_run5.sh   (device tool; writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
t0=$(date +%s)
timeout 560 python3 scripts/ab_sm90.py --out "$OUT" --configs n64s2,n32s3_d256,n32s2_d256,n32s3_ds_d256 \
  --cases 256:512,256:1024,256:2048,256:4096,256:16384 --rounds ${ROUNDS:-25} --reference dhpfa 2>&1 \
  | grep -v Warning | tail -14
echo "total $(( $(date +%s) - t0 )) s"
