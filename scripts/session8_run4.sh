#!/bin/bash
# Session 8, device run 4: issue 6's evidence on today's kernels (leak with and without the envelope at two
# shapes, 10,000 samples per class; overhead and misses of the default and the duty-cycle calibration at the
# grid shapes, with the GPU's clocks), and racecheck's hazards on the split-key build in full.
#   bash scripts/session8_run4.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
echo "== racecheck split keys 2,16,512,128,1"
SPLITK_ONCE=1 timeout 100 compute-sanitizer --tool racecheck --print-limit 40 --kernel-name kns=attn_fwd \
  python3 scripts/splitk_fault.py child 2,16,512,128,1 > $OUT/racecheck_splitk.txt 2>&1
grep -E "Race|race|hazard|at 0x|in attn|\.py:" $OUT/racecheck_splitk.txt | sort | uniq -c | sort -rn | head -30
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,power.limit --format=csv
timeout 150 python3 scripts/envelope_duty.py --out $OUT/duty 2>&1 | tail -10
nvidia-smi --query-gpu=clocks.sm,power.draw,clocks_throttle_reasons.active --format=csv
for shape in 4,16,2048,128 1,16,8192,128; do
  timeout 200 python3 -m dhpfa leak --envelope --samples 10000 --shape $shape --out $OUT/leak_$shape 2>&1 | tail -14
done
