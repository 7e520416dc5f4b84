#!/bin/bash
# Session 55 call 8: the merged decode kernel (sm90_decode.attn_decode_sm90_merged, variants.SWAP_DECODE_MERGE: the
# last program of a pair merges its parts, no combine launch): the decode GPU tests (the swapped-GEMM API test runs
# both forms), rule_check --set merge55 (the switch flipped), memcheck / synccheck over API calls with it on.
#   bash scripts/session55_run8.sh   (carry [".whl"]; writes under $OUT; about 4 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== decode tests ($(( $(date +%s) - t0 )) s)"
timeout 170 python3 -m pytest -q -m gpu -n 8 tests/test_sm90_decode.py tests/test_gpu.py -k "decode or repeated_calls" \
  -o cache_dir=build/pcb -rf > "$OUT/decode_tests.log" 2>&1
echo "rc $? ($(( $(date +%s) - t0 )) s)"; grep -E "passed|failed" "$OUT/decode_tests.log" | tail -2
grep -E "^FAILED" "$OUT/decode_tests.log" | head -20
echo "== rule_check merge55 ($(( $(date +%s) - t0 )) s)"
timeout 100 python3 scripts/rule_check.py --out "$OUT/rc" --set merge55 --rounds 7 2>&1 | grep -v "^$" | tail -18
sanitize_decode 60 5 ", merged" --seed 2 --merge on --cases "1,32,8,16385,128;2,32,8,4097,64;1,28,4,40000,64"
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
