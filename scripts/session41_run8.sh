#!/bin/bash
# Session 41 call 8: FULL_FIRST in the Hopper varlen non-causal builds without a window too (16 binaries: D=96 / 128,
# plain, paged, soft-capped): the Hopper varlen GPU tests (test_varlen -k "sm90 or sequences_against"), then
# scripts/varlen_bench.py's grid at D=128, this tree and HEAD's (build/head: 0fa4e65's src and scripts, carried), one
# process each (not interleaved), twice in alternation.
#   bash scripts/session41_run8.sh   (carry [".whl", "build/head"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 60 python3 scripts/precompile.py --jobs 16 --match sm90_varlen 2>&1 | tail -1
timeout 170 python3 -m pytest -q -m gpu -n 14 tests/test_varlen.py -k "sm90 or sequences_against" -p no:cacheprovider \
  > "$OUT/varlen_tests.log" 2>&1
echo "tests rc $? $(( $(date +%s) - t0 )) s"; tail -2 "$OUT/varlen_tests.log"
for k in 1 2; do
  for v in head tree; do
    s=scripts; [ $v = head ] && s=build/head/scripts
    PYTHONPATH=/tmp/xd:$PWD/$([ $v = head ] && echo build/head/src || echo src):$PWD/tests:$PWD/$s \
      timeout 60 python3 $s/varlen_bench.py --out "$OUT/vb_${v}$k" --rounds 5 --parts grid --dims 128 \
      --kinds mixed,short,uniform1k --leaks "" > "$OUT/vb_${v}$k.log" 2>&1
    echo "== $v$k rc $? $(( $(date +%s) - t0 )) s"; grep -iE "mixed|short|uniform" "$OUT/vb_${v}$k.log" | head -12
  done
done
