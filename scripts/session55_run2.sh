#!/bin/bash
# Session 55 call 2: the API's decode path with the plan's kept pair (sm90_decode.Kept) and variants.SWAP_DECODE on by
# default: the decode GPU tests (fresh tensors on the kept pair against float64), eager host time (decode_host_time.py:
# the kept pair, the metadata-keyed path of call 1, the forward kernels, cuDNN), rule_check --set swap54 (the switch
# flipped either way; D=64 with 4 pairs added), then the whole test_gpu.py after a precompile.
#   bash scripts/session55_run2.sh   (carry [".whl"]; writes under $OUT; about 8 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== decode tests ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 -m pytest -q -m gpu -n 6 tests/test_sm90_decode.py tests/test_gpu.py -k "decode or repeated_calls" \
  -o cache_dir=build/pcb -rf > "$OUT/decode_tests.log" 2>&1
echo "rc $? ($(( $(date +%s) - t0 )) s)"; grep -E "passed|failed" "$OUT/decode_tests.log" | tail -2
grep -E "^FAILED" "$OUT/decode_tests.log" | head -20
echo "== eager host time ($(( $(date +%s) - t0 )) s)"
timeout 90 python3 scripts/decode_host_time.py 2>&1 | tail -5
echo "== rule_check swap54 ($(( $(date +%s) - t0 )) s)"
timeout 170 python3 scripts/rule_check.py --out "$OUT/rc" --set swap54 --rounds 7 2>&1 | grep -v "^$" | tail -22
echo "== precompile ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 scripts/precompile.py --jobs 16 2>&1 | tail -1
timeout 150 python3 -m pytest -q -m gpu -n 6 --dist loadgroup tests/test_gpu.py -o cache_dir=build/pcb -rf \
  > "$OUT/gpu_tests.log" 2>&1
echo "test_gpu rc $? ($(( $(date +%s) - t0 )) s)"; grep -E "passed|failed" "$OUT/gpu_tests.log" | tail -2
grep "^FAILED" "$OUT/gpu_tests.log" | head -20
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
