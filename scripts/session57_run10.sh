#!/bin/bash
# Session 57 call 10: issue 5's table on this H200 (dhpfa bench --quick: grid, small), the final tree.
#   bash scripts/session57_run10.sh   (carry [".whl"]; writes under $OUT; about 2.5 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== bench ($(( $(date +%s) - t0 )) s)"
timeout 270 python3 -m dhpfa bench --quick --dtypes bf16 --parts grid,small --out "$OUT/bench" 2>&1 | grep -v "^$" \
  | grep -v "^\[" | tail -32
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
