#!/bin/bash
# Session 54 call 5: the swapped-GEMM decode kernel with P kept keys-contiguous (a K-major B; call 4's N-major P^T gave
# wrong outputs at 128-key blocks): every config once under memcheck (call 4's timing hit an illegal address), the
# float64 checks and bitwise repeats, then the timing (scripts/decode_swap_ab.py).
#   bash scripts/session54_run5.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== memcheck, every config ($(( $(date +%s) - t0 )) s)"
timeout 150 compute-sanitizer --tool memcheck --print-limit 4 python3 scripts/decode_swap_ab.py --sanitize 2>&1 \
  | grep -v "Host Frame" | grep -v "^=========\s*$" | grep -E "ERROR|Invalid|^p|sanitize|at 0x|by thread" | head -30
echo "== decode_swap_ab ($(( $(date +%s) - t0 )) s)"
timeout 400 python3 scripts/decode_swap_ab.py --out "$OUT/ab" --rounds 7 --configs ${CONFIGS:-p8,p16,p32,p64,p16n64,p32n64,p64n64,p128n64} 2>&1 | grep -v "^$" | tail -40
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
