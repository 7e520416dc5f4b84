#!/bin/bash
# Hardware counters through the API (`dhpfa counters`: ncu --clock-control none, 5 input classes and 5 repeats
# of one input) for each "B,H,S,D[ --causal]" argument, with a short per-metric summary; one output folder
# per argument under $OUT (counters1, counters2, ...). Used by the session scripts.
#   bash scripts/counters_batch.sh "1,8,512,128" "32,16,512,128 --causal"
OUT=${OUT:-out}; mkdir -p "$OUT"
i=0
for spec in "$@"; do
  i=$((i+1)); set -- $spec
  echo "== counters $spec"
  timeout ${COUNTERS_LIMIT:-170} python3 -m dhpfa counters --shape $1 $2 --out $OUT/counters$i 2>&1 | tail -${COUNTERS_TAIL:-3}
  python3 -c "
import json; r=json.load(open('$OUT/counters$i/counters.json'))['results']['dhpfa']
print({k: r.get(k) for k in ('work_identical', 'dram_within_repeat_spread', 'control_within_repeat_spread', 'error')})
m=r.get('metrics', {})
for name, row in m.items(): print(' ', name.split('__')[1][:44], row['identical'], row['class_spread'], row['repeat_spread'])
print(' kernels:', r['per_call']['fixed-random']['kernels'] if 'per_call' in r else None)" 2>&1 | tail -18
done
