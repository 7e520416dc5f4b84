#!/bin/bash
# Session 59 call 8: test_packed_decode_under_torch_compile after its D=128 forward case moved to 8,192 keys (call 7: the
# fill rule sends three sequences over 4,096 keys to the swap kernel), and the swap decode tests again.
#   bash scripts/session59_run8.sh   (carry [".whl"]; writes under $OUT; about 2 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
timeout 150 python3 -m pytest -q -m gpu -n 8 tests/test_gpu.py -k "packed_decode_under_torch_compile or swapped_gemm" \
  -o cache_dir=build/pcb -rf > "$OUT/tests.log" 2>&1
echo "rc $? ($(( $(date +%s) - t0 )) s)"; grep -E "passed|failed" "$OUT/tests.log" | tail -2
grep -E "^FAILED" "$OUT/tests.log" | head -20
} 2>&1 | tee "$OUT/run.log"
