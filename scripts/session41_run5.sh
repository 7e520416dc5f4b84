#!/bin/bash
# Session 41 call 5: issue 5's cells with FULL_FIRST: the quick grid (1K, 4K, 16K at D=64 / 128 / 256, causal and not,
# bf16), the small shapes, then the short cells in graph replay, beside the SDPA backends (dhpfa bench).
#   bash scripts/session41_run5.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 280 python3 -m dhpfa bench --quick --dtypes bf16 --parts grid,small --out "$OUT/bench" 2>&1 | grep -v "^$" | tail -40
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 150 python3 -m dhpfa bench --quick --dtypes bf16 --parts short --out "$OUT/short" 2>&1 | grep -v "^$" | tail -20
echo "elapsed $(( $(date +%s) - t0 )) s"
