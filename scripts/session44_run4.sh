#!/bin/bash
# Session 44 call 4: the two-CTA cluster's split of a tile's key blocks now that its meeting is cheaper (part 1 the first
# (n - 1) // 2 blocks as shipped, n // 2, n // 3; module copies written by cluster_tree_ab.py), graph replay of many
# calls, 15 rounds; then the shipped builds' stamps at (1,8,512,D) (scripts/cluster_stamps.py: STAMP).
#   bash scripts/session44_run4.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 120 python3 scripts/precompile.py --jobs 16 --match kv2 2>&1 | tail -1
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 240 python3 scripts/cluster_tree_ab.py --out "$OUT" --precompile 14 --rounds 15 --call 4 --timing-only
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 120 python3 scripts/cluster_stamps.py --out "$OUT" --launches 30
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
