#!/bin/bash
# Session 25 run 6: evidence on the final kernels. Hardware counters through the API (5 input classes, 5 repeats of
# one input) and dudect (2,000 samples a class) at (1,32,8192,64), the three-consumer build with its row sums on the
# tensor cores, and at (4,16,2048,128), a two-consumer build with P in packed words.
#   bash scripts/session25_run6.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
t0=$(date +%s)
COUNTERS_LIMIT=200 bash scripts/counters_batch.sh "1,32,8192,64" "4,16,2048,128"
echo "counters $(( $(date +%s) - t0 )) s"
for shape in 1,32,8192,64 4,16,2048,128; do
  timeout 150 python3 -m dhpfa leak --shape $shape --samples ${SAMPLES:-2000} --out $OUT/leak_$shape 2>&1 | grep -v "^\[" | tail -8
  echo "leak $shape $(( $(date +%s) - t0 )) s"
done
