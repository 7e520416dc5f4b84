#!/bin/bash
# Session 6, device run 11: hardware counters (ncu --clock-control none) across input classes and repeats
# for this session's new D=64 variants: three consumers (1,32,8192,64) and the few-program tiles (1,8,512,64).
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
for shape in 1,32,8192,64 1,8,512,64; do  # (run 11 wrote to folders named with commas: not fetched)
  echo "== counters $shape"
  timeout 150 python3 -m dhpfa counters --shape $shape --out $OUT/counters-$shape 2>&1 | tail -4
  python3 -c "import json; r=json.load(open('$OUT/counters-$shape/counters.json'))['results']['dhpfa']; print(r['per_call']['fixed-random']['kernels'])"
done
