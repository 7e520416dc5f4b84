#!/bin/bash
# Session 36 call 11: the one-pass combine against the two-pass one (build/old_src, carried; alternating processes,
# outputs compared bitwise); the split sweep again over the three length mixes with the new combine; the varlen GPU
# tests that split, decode, group or use kvcache.
#   bash scripts/session36_run11.sh   (carry [".whl", "build/old_src"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
i=0
for cfg in old new old new; do
  i=$((i + 1))
  if [ $cfg = old ]; then P=/tmp/xd:$PWD/build/old_src/src:$PWD/scripts; else P=$PYTHONPATH; fi
  env PYTHONPATH=$P timeout 100 python3 scripts/decode_step_time.py --out "$OUT/steps$i-$cfg" > /dev/null 2>&1
done
python3 scripts/decode_step_time.py --compare "$OUT/steps1-old" "$OUT/steps2-new" "$OUT/steps3-old" "$OUT/steps4-new"
for L in uniform random onelong; do
  timeout 120 python3 scripts/decode_split_sweep.py --lengths $L --rounds 5 --out "$OUT" --splits 1,2,4,8,16 \
    2>&1 | grep " rule " | sed 's/diff.*waves/waves/'
done
echo "== tests"
timeout 250 python3 -m pytest -q -m gpu -n 6 tests/test_varlen.py -k "split or decode or kvcache or grouped" \
  -p no:cacheprovider -rf > "$OUT/tests.log" 2>&1
echo "tests rc $? $(( $(date +%s) - t0 )) s"; grep -E "passed|failed" "$OUT/tests.log" | tail -1
grep "^FAILED" "$OUT/tests.log" | head
echo "elapsed $(( $(date +%s) - t0 )) s"
