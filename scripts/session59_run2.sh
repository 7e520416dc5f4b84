#!/bin/bash
# Session 59 call 2: decode over batches of 4-64 sequences on the swapped-GEMM kernel (decode_batch59.py).
#   bash scripts/session59_run2.sh   (carry [".whl"]; writes under $OUT; about 3 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
timeout 400 python3 scripts/decode_batch59.py --rounds 7 2>&1 | grep -v Warning
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
