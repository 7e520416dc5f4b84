#!/bin/bash
# Session 59 call 6: pair counts the swap decode rule leaves to the forward kernels (6-96 pairs) at part counts that
# fill most SMs (decode_batch59.py --fill).
#   bash scripts/session59_run6.sh   (carry [".whl"]; writes under $OUT; about 2 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
timeout 200 python3 scripts/decode_batch59.py --fill --rounds 5 2>&1 | grep -v Warning
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
