#!/bin/bash
# Session 60, call 5: one binary for both part forms (KEYS_PER_PART carries the count of longer parts; the even parts
# where pairs x parts is at most half the SMs, variants.swap_decode_even): float64 checks of both forms, the even / equal
# A/B on that binary, test_sm90_decode.py's GPU tests, memcheck / synccheck, counters and dudect at an even-parts
# shape, then the precompile and the whole test_gpu.py.
#   bash scripts/session60_run5.sh   (carry [".whl"]; writes under $OUT; about 7 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== checks ($(( $(date +%s) - t0 )) s)"
timeout 100 python3 scripts/decode_even60.py 2>&1 | grep -v Warning | grep -E "FAIL|checks"
echo "== even / equal ($(( $(date +%s) - t0 )) s)"
timeout 120 python3 scripts/decode_even60.py --time --rounds 11 2>&1 | grep -v Warning
echo "== test_sm90_decode GPU tests ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 -m pytest -q -m gpu -n 8 tests/test_sm90_decode.py -o cache_dir=build/pcb -rf 2>&1 | tail -4
sanitize_decode 60 6 ", one binary, both forms" --seed 61 \
  --cases "1,32,4,2049,128;1,16,2,65537,128;1,32,8,4097,128;2,32,8,2049,64;7,32,4,1031,128"
counters_and_leak 1,32,1,128,4097,4:5
whole_gpu_tests
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
