#!/bin/bash
# Session 8, device run 5: the split-key hand-over on named barriers (fault cases, GPU tests, racecheck),
# the envelope and bench GPU tests, then the grid with interleaved timing (`dhpfa bench --dtypes bf16`).
#   bash scripts/session8_run5.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
python3 scripts/splitk_fault.py 2>&1 | grep -E "==|graph" | tail -14
timeout 200 python3 -m pytest -m gpu -q -p no:cacheprovider tests/test_sm90_fwd.py tests/test_tune.py tests/test_gpu.py \
  tests/test_measure.py tests/test_envelope.py -k "split or tune_times or x2sk or few_program or bench_case or envelope \
  or calibrate or gate or deadline" > $OUT/pytest_run5.txt 2>&1
grep -E "passed|failed|FAILED|Error" $OUT/pytest_run5.txt | tail -8
echo "== racecheck split keys 2,16,512,128,1"
SPLITK_ONCE=1 timeout 100 compute-sanitizer --tool racecheck --print-limit 20 --kernel-name kns=attn_fwd \
  python3 scripts/splitk_fault.py child 2,16,512,128,1 > $OUT/racecheck_splitk.txt 2>&1
grep -E "SUMMARY|Race reported" $OUT/racecheck_splitk.txt | sed 's/.*access at //' | sort | uniq -c | head -12
timeout 330 python3 -m dhpfa bench --dtypes bf16 --out $OUT/bench 2>&1 | grep -v "^\[" | tail -75
