#!/bin/bash
# Session 44 call 8: issue 5's table this session (dhpfa bench --quick: the grid, small shapes, the short cells in graph
# replay, long context), and the counters at (1,8,512,64) twice more (call 7 marked the control counts' class spread
# above the repeats' once).
#   bash scripts/session44_run8.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 300 python3 -m dhpfa bench --quick --dtypes bf16 --parts grid,small --out "$OUT/bench" 2>&1 | grep -v "^$" | tail -40
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 150 python3 -m dhpfa bench --quick --dtypes bf16 --parts short --out "$OUT/short" 2>&1 | grep -v "^$" | tail -20
echo "elapsed $(( $(date +%s) - t0 )) s"
for i in 1 2; do timeout 90 python3 -m dhpfa counters --shape 1,8,512,64 2>&1 | tail -1; done
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 200 python3 -m dhpfa bench --quick --dtypes bf16 --parts long --out "$OUT/long" 2>&1 | grep -v "^$" | tail -12
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
