#!/bin/bash
# Session 36 call 16: the combine's 4-part tiles for calls of up to 4 parts (combine_ab.py: shipped / 16-part tiles for
# every call / one part a round), and the GPU combine and split tests.
#   bash scripts/session36_run16.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 150 python3 scripts/combine_ab.py --rounds 5 --out "$OUT" 2>&1 | tail -24
timeout 120 python3 -m pytest -q -m gpu -n 8 tests/test_varlen.py -k "combine or grouped_heads or split" \
  -p no:cacheprovider -rf > "$OUT/tests.log" 2>&1
echo "tests rc $? $(( $(date +%s) - t0 )) s"; grep -E "passed|failed" "$OUT/tests.log" | tail -1
grep "^FAILED" "$OUT/tests.log" | head -5
echo "elapsed $(( $(date +%s) - t0 )) s"
