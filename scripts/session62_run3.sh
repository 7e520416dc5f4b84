#!/bin/bash
# Session 62 call 3, on the submitted tree: the whole test_gpu.py (after precompiling every audited variant) and the
# GPU tests of test_sm90_decode.py; memcheck / synccheck over API calls of four full waves of pairs on the stream
# build; decode_stream_wide62.py at five and six full waves (660-820 pairs) for the next session's rule.
#   bash scripts/session62_run3.sh   (carry [".whl"]; writes under $OUT; about 9 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
whole_gpu_tests
echo "== test_sm90_decode gpu ($(( $(date +%s) - t0 )) s)"
timeout 120 python3 -m pytest -q -m gpu -n 8 tests/test_sm90_decode.py -o cache_dir=build/pcb -rf \
  > "$OUT/sm90_decode_tests.log" 2>&1
echo "rc $? ($(( $(date +%s) - t0 )) s)"; grep -E "passed|failed" "$OUT/sm90_decode_tests.log" | tail -2
sanitize_decode 120 4 " (stream, 4 waves)" --cases "134,32,4,1025,128;140,16,8,4097,128"
echo "== decode_stream_wide62 five and six waves ($(( $(date +%s) - t0 )) s)"
timeout 60 python3 scripts/decode_stream_wide62.py --rounds 5 --dims 128 --keys 1024,4096 --batches 166,175,199,205 \
  --out "$OUT" 2>&1 | grep -v Warning
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
