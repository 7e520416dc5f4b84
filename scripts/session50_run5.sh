#!/bin/bash
# Session 50 call 5: the rest of issue 5's table on this H200 (no kernel changed since call 2's grid and small parts):
# the short cells in graph replay (dhpfa bench --quick --parts short) and the long-context row (--parts long).
#   bash scripts/session50_run5.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
timeout 90 python3 -m dhpfa bench --quick --dtypes bf16 --parts short --out "$OUT/short" 2>&1 | grep -v "^$" | tail -20
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 160 python3 -m dhpfa bench --dtypes bf16 --parts long --out "$OUT/long" 2>&1 | grep -v "^$" | tail -8
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
