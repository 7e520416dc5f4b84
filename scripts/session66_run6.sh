#!/bin/bash
# Session 66 call 6: memcheck / synccheck at the balanced count's new cells (10 and 8 pairs a program: 2,640 pairs at
# D=128 x 1,025 keys, MHA 2,048 pairs x 2,048 keys), and call 5's one failure (test_envelope's gate test, a 2 ms
# deadline, under 8 workers sharing the GPU) alone.
#   bash scripts/session66_run6.sh   (carry [".whl"]; writes under $OUT; about 2 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
sanitize_decode 150 8 " (12-20x the SMs' pairs)" --cases "330,32,8,1025,128;64,32,32,2048,128"
echo "== test_envelope alone ($(( $(date +%s) - t0 )) s)"
timeout 120 python3 -m pytest -q -m gpu tests/test_envelope.py -o cache_dir=build/pcb -rf 2>&1 | tail -3
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
