#!/bin/bash
# Session 10, device run 17: burst against sustained clocks on one machine. Runs 10 (25 ms batches) and 16 (250 ms)
# ran on different machines and read dhpfa / cuDNN 1.03 -> 0.95 at D=64 4K and 1.06 -> 1.01 at D=256 16K. Here the
# API and the SDPA backends at those cells and D=128 16K, with 30 ms and then 250 ms batches, in one process.
#   bash scripts/session10_run17.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT/b30" "$OUT/b250"
nvidia-smi --query-gpu=name,power.limit,clocks.max.sm --format=csv
for b in 30 250; do
  echo "== batches of $b ms"
  timeout 200 python3 scripts/ab_sm90.py --out $OUT/b$b --configs "" --cases 64:4096,128:16384,256:16384 --eager \
    --rounds 9 --batch-ms $b --reference dhpfa --no-correctness 2>&1 | grep -v "^correctness" | tail -6
done
