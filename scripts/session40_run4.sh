#!/bin/bash
# Session 40 call 4: issue 5's cells on this session's code: the quick grid (1K, 4K, 16K at D=64 / 128 / 256, causal
# and not, bf16) and the small shapes, then the short cells in graph replay, beside the SDPA backends (dhpfa bench).
#   bash scripts/session40_run4.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 280 python3 -m dhpfa bench --quick --dtypes bf16 --parts grid,small --out "$OUT/bench" 2>&1 | grep -v "^$" | tail -40
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 110 python3 -m dhpfa bench --quick --dtypes bf16 --parts short --out "$OUT/short" 2>&1 | grep -v "^$" | tail -20
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 100 python3 -m dhpfa bench --dtypes bf16 --parts long --out "$OUT/long" 2>&1 | grep -v "^$" | tail -12
echo "elapsed $(( $(date +%s) - t0 )) s"
