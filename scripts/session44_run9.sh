#!/bin/bash
# Session 44 call 9: call 4's split of a tile's key blocks between the cluster's two parts ((n - 1) // 2 for part 1 as
# shipped, n // 2, n // 3), again with the shipped meeting (cheaper since call 5), 21 rounds.
#   bash scripts/session44_run9.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 120 python3 scripts/precompile.py --jobs 16 --match kv2 2>&1 | tail -1
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 300 python3 scripts/cluster_tree_ab.py --out "$OUT" --precompile 14 --rounds 21 --call 4 --timing-only
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
