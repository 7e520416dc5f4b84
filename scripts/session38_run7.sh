#!/bin/bash
# Session 38 call 10: ROW_BOUND on the Hopper varlen causal builds too: their GPU tests (test_varlen -k "sm90 or
# sequences_against"), then scripts/varlen_bench.py's grid at D=128 (mixed and short workloads), this tree and HEAD's
# (build/head: a copy of d1b7ca2's src and scripts, carried), one process each (not interleaved).
#   bash scripts/session38_run7.sh   (carry [".whl", "build/head"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 40 python3 scripts/precompile.py --jobs 16 --match sm90_varlen --match causal 2>&1 | tail -1
timeout 90 python3 -m pytest -q -m gpu -n 6 tests/test_varlen.py -k "sm90 or sequences_against" -p no:cacheprovider \
  > "$OUT/varlen_tests.log" 2>&1
echo "tests rc $? $(( $(date +%s) - t0 )) s"; tail -2 "$OUT/varlen_tests.log"
for v in tree head; do
  s=scripts; [ $v = head ] && s=build/head/scripts
  timeout 35 python3 $s/varlen_bench.py --out "$OUT/vb_$v" --rounds 5 --parts grid --dims 128 --kinds mixed,short \
    --leaks "" > "$OUT/vb_$v.log" 2>&1
  echo "== $v rc $? $(( $(date +%s) - t0 )) s"; grep -iE "causal|mixed|short" "$OUT/vb_$v.log" | head -8
done
