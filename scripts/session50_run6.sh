#!/bin/bash
# Session 50 call 6 (for the next session): where MQA of one sequence spends its time on clusters of sixteen
# (decode_stamps.py --set x16: Q, key blocks, the whole shared-memory meeting, what follows it, each build's graph
# replay beside); eager launches for the stamps.
#   bash scripts/session50_run6.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
timeout 280 python3 scripts/decode_stamps.py --out "$OUT/stamps" --set x16 --launches 30 2>&1
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
