#!/bin/bash
# Session 36 call 4: the new split rule (variants.varlen_splits) on shapes the rule was not fitted on, three length
# mixes, and the varlen / kvcache GPU tests that split.
#   bash scripts/session36_run4.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
for L in uniform random onelong; do
  timeout 150 python3 scripts/decode_split_sweep.py --lengths $L --rounds 5 --out "$OUT" --splits 1,2,4,8,16 \
    --shapes "2,32768;12,8192;48,2048;96,4096;16,4096;6,16384" 2>&1 | grep " rule " 
done
echo "== tests"
timeout 300 python3 -m pytest -q -m gpu -n 6 tests/test_varlen.py \
  -k "split or decode or kvcache or grouped" -p no:cacheprovider -rf > "$OUT/tests.log" 2>&1
echo "tests rc $? $(( $(date +%s) - t0 )) s"; grep -E "passed|failed" "$OUT/tests.log" | tail -1
grep "^FAILED" "$OUT/tests.log" | head
echo "elapsed $(( $(date +%s) - t0 )) s"
