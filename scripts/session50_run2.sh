#!/bin/bash
# Session 50 call 2: where clusters of sixteen start (cluster_tree_ab --call 36, timing only: call 1 checked the builds),
# session 50's rule against session 49's (rule_check --set x16: float64 check of each case, the API / the rule before /
# cuDNN), and issue 5's table on this H200 (dhpfa bench --quick: grid, small).
#   bash scripts/session50_run2.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
timeout 150 python3 scripts/precompile.py --jobs 16 --match kv 2>&1 | tail -1
echo "precompile $(( $(date +%s) - t0 )) s"
timeout 140 python3 scripts/cluster_tree_ab.py --out "$OUT/ab36" --call 36 --precompile 14 --rounds 11 --timing-only 2>&1
echo "call 36 done $(( $(date +%s) - t0 )) s"
timeout 150 python3 scripts/rule_check.py --out "$OUT/rc" --set x16 --rounds 9 2>&1
echo "rule check done $(( $(date +%s) - t0 )) s"
timeout 150 python3 -m dhpfa bench --quick --dtypes bf16 --parts grid,small --out "$OUT/bench" 2>&1 | grep -v "^$" | tail -40
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
