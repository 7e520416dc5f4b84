#!/bin/bash
# Session 8, device run 3: the split-key build with a sub-ring per consumer (the fix of run 2's race): the
# fault cases again, its GPU tests, racecheck/memcheck on one grid, then its speed at few-program shapes.
#   bash scripts/session8_run3.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT/splitk"
python3 scripts/splitk_fault.py 2>&1 | tail -30
timeout 240 python3 -m pytest -m gpu -q -p no:cacheprovider tests/test_sm90_fwd.py tests/test_tune.py tests/test_gpu.py \
  -k "split or tune_times or x2sk or few_program" > $OUT/pytest_splitk.txt 2>&1
grep -E "passed|failed|FAILED|Error" $OUT/pytest_splitk.txt | tail -8
for tool in memcheck racecheck synccheck; do
  echo "== $tool 2,16,512,128,1"
  SPLITK_ONCE=1 timeout 150 compute-sanitizer --tool $tool --kernel-name kns=attn_fwd \
    python3 scripts/splitk_fault.py child 2,16,512,128,1 2>&1 | tail -3
done
timeout 240 python3 scripts/small_tiles.py --out $OUT/splitk --preset splitk --rounds 9 \
  --shapes "1,4,2048,64;2,4,2048,64;1,4,2048,128;2,4,2048,128" 2>&1 | grep -E "==| us " | tail -70
