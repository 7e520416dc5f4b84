#!/bin/bash
# Session 8, device run 9: counters (ncu --clock-control none, 5 classes x 5 repeats, through the API) and
# bitwise determinism (1,000 runs, two processes) of the split-key build after run 2's fix: few-program
# (1,4,2048,64) and the causal 2x-SM grid (2,4,2048,128).   bash scripts/session8_run9.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
python3 -c "
from dhpfa.measure.determinism import run_determinism
for shape in ((1, 4, 2048, 64), (2, 4, 2048, 128)):
    r = run_determinism(shape, runs=1000)
    print(shape, 'ok' if r['ok'] else 'NOT deterministic', {k: (v['identical_runs'], v['processes_identical'])
                                                          for k, v in r.items() if isinstance(v, dict)})"
i=0
for spec in "1,4,2048,64" "2,4,2048,128 --causal"; do
  i=$((i+1)); set -- $spec
  echo "== counters $spec"
  timeout 150 python3 -m dhpfa counters --shape $1 $2 --out $OUT/counters$i 2>&1 | tail -2
  python3 -c "
import json; r=json.load(open('$OUT/counters$i/counters.json'))['results']['dhpfa']
print({k: r.get(k) for k in ('work_identical', 'dram_within_repeat_spread', 'control_within_repeat_spread', 'error')})
m=r.get('metrics', {})
for name, row in m.items(): print(' ', name.split('__')[1][:44], row['identical'], row['class_spread'], row['repeat_spread'])
print(' kernels:', r['per_call']['fixed-random']['kernels'] if 'per_call' in r else None)" 2>&1 | tail -18
done
