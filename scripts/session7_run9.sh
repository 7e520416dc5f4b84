#!/bin/bash
# Session 7, device run 9: hardware counters (ncu --clock-control none, 5 input classes and 5 repeats of one
# input, through the API) for this session's new builds: the Gluon one-consumer few-program tiles
# (1,8,512,128), and the causal builds that skip masked blocks (SKIP_MASKED): D=128 S=512 (64-key blocks)
# and D=256 4K.   bash scripts/session7_run9.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
i=0
for spec in "1,8,512,128" "32,16,512,128 --causal" "2,8,4096,256 --causal"; do
  i=$((i+1)); set -- $spec
  echo "== counters $spec"
  timeout 170 python3 -m dhpfa counters --shape $1 $2 --out $OUT/counters$i 2>&1 | tail -3
  python3 -c "
import json; r=json.load(open('$OUT/counters$i/counters.json'))['results']['dhpfa']
print({k: r.get(k) for k in ('work_identical', 'dram_within_repeat_spread', 'control_within_repeat_spread', 'error')})
m=r.get('metrics', {})
for name, row in m.items(): print(' ', name.split('__')[1][:44], row['identical'], row['class_spread'], row['repeat_spread'])
print(' kernels:', r['per_call']['fixed-random']['kernels'] if 'per_call' in r else None)" 2>&1 | tail -18
done
