#!/bin/bash
# Session 6, device run 2 (kernel = HEAD's: the per-thread release of run 1 is reverted).
# A: D=64, 4K-16K: three consumer warpgroups (192-row tiles; 2 or 3 stages; with and without turns)
#    against the two-consumer n128s2 and the API's choice, eager batches, random order per round.
# B: D=128, S=512 and 1K (the short causal cells), in CUDA-graph replay: tile configurations of the
#    Gluon kernel (persistent or not, 64-/128-key blocks, 64-row tiles with one consumer).
#   bash scripts/session6_run2.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT/a" "$OUT/b"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader
echo "== A: D=64"
timeout ${A_LIMIT:-300} python3 scripts/ab_sm90.py --out $OUT/a --reference dhpfa \
  --configs n128s2,m192n128s2_x3,m192n128s3_x3,m192n128s2_x3_nopp --cases 64:4096,64:8192,64:16384 2>&1 | tail -9
echo "== B: D=128 short, graph replay"
timeout ${B_LIMIT:-250} python3 scripts/ab_sm90.py --out $OUT/b --reference dhpfa --graph \
  --configs n64s3,n64s3_np,n64s2,n128s2,m64n64s3_x1,m64n64s2_x1 --cases 128:512,128:1024 2>&1 | tail -7
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv,noheader
