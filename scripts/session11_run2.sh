#!/bin/bash
# Session 11, device run 2: (1,8,512,64) in graph replay. The Gluon kernel's one-consumer 64-row tiles (shipped at
# D=128's few-program grids) beside the shipped D=64 pointer-load tiles (correctness against float64 first); a
# sweep of seq_k (64 .. 2048 keys, 512 queries) fitted to fixed + per-block time; then the deferred O store on the
# D=128 causal short build (n64s3) at S=512 (correctness, 7 programs included; A/B in graph replay, 15 rounds).
#   bash scripts/session11_run2.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 150 python3 scripts/small_tiles.py --out $OUT --preset x1d64 --shapes "1,8,512,64" --rounds 15
timeout 150 python3 scripts/small_sweep.py --out $OUT
timeout 200 python3 scripts/ab_sm90.py --configs n64s3,n64s3_ds,n64s3_ds_p7 --cases "" --out $OUT/ab_c 2>&1 | tail -1
timeout 150 python3 scripts/ab_sm90.py --out $OUT/ab --configs n64s3,n64s3_ds --cases 128:512 --rounds 15 \
  --reference tree/n64s3 --no-correctness 2>&1 | tail -3
