#!/bin/bash
# Session 60, call 1: session 59's prepared run 9 (decode_batch59.py --next: the fill rule's untimed edges), the decode
# key-count sweep (peer_sweep.py --set steps: on and just past powers of two), then the whole test_gpu.py on session
# 59's final rule (not run after its fill rule).
#   bash scripts/session60_run1.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== decode_batch59 --next ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 scripts/decode_batch59.py --next --rounds 7 2>&1 | grep -v Warning
echo "== steps sweep ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 scripts/peer_sweep.py --set steps --rounds 7 --precompile 8 --out "$OUT/steps" 2>&1 | grep -v Warning
whole_gpu_tests
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
