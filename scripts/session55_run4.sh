#!/bin/bash
# Session 55 call 4: the rule after call 3 (the swap kernel where its CTAs fill the SMs, D=128 4 pairs at half fill;
# D=64 4 pairs in 32 parts; 5-7 pairs back on the forward kernels): the decode GPU tests and rule_check --set swap54.
#   bash scripts/session55_run4.sh   (carry [".whl"]; writes under $OUT; about 3 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== decode tests ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 -m pytest -q -m gpu -n 6 tests/test_sm90_decode.py tests/test_gpu.py -k "decode or repeated_calls" \
  -o cache_dir=build/pcb -rf > "$OUT/decode_tests.log" 2>&1
echo "rc $? ($(( $(date +%s) - t0 )) s)"; grep -E "passed|failed" "$OUT/decode_tests.log" | tail -2
grep -E "^FAILED" "$OUT/decode_tests.log" | head -20
echo "== rule_check swap54 ($(( $(date +%s) - t0 )) s)"
timeout 170 python3 scripts/rule_check.py --out "$OUT/rc" --set swap54 --rounds 7 2>&1 | grep -v "^$" | tail -22
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
