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
COUNTERS_LIMIT=150 COUNTERS_TAIL=2 bash scripts/counters_batch.sh "1,4,2048,64" "2,4,2048,128 --causal"
