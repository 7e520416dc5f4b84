#!/bin/bash
# Session 56 call 2: the merged decode kernel's merge in rounds of CHUNK parts with 16-byte loads
# (sm90_decode._merge_parts): the decode GPU tests (default builds: D=128 CHUNK 8), scripts/decode_merge56.py (float64
# checks, then combine / CHUNK 8 / CHUNK 16 / cuDNN at the rule's cells, and two / three pairs at 32-64 parts),
# memcheck / synccheck over API calls with the merge on at D=64 and D=128.
#   bash scripts/session56_run2.sh   (carry [".whl"]; writes under $OUT; about 6 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== decode tests ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 -m pytest -q -m gpu -n 8 tests/test_sm90_decode.py tests/test_gpu.py -k "decode or repeated_calls" \
  -o cache_dir=build/pcb -rf > "$OUT/decode_tests.log" 2>&1
echo "rc $? ($(( $(date +%s) - t0 )) s)"; grep -E "passed|failed" "$OUT/decode_tests.log" | tail -2
grep -E "^FAILED" "$OUT/decode_tests.log" | head -20
echo "== decode_merge56 ($(( $(date +%s) - t0 )) s)"
PYTHONPATH=src:scripts timeout 260 python3 scripts/decode_merge56.py --rounds 7 2>&1 | grep -v "^$" | tail -60
sanitize_decode 60 6 ", merged at D=64 and D=128" --seed 2 --merge on --merge-dims 64,128 \
  --cases "1,32,8,16385,128;2,32,8,4097,64;1,28,4,40000,64;2,32,8,16383,128"
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
