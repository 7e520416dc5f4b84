#!/bin/bash
# Session 44 call 13: the two-CTA meeting's bulk copy as four copies of a quarter, one per warp (cluster_tree_ab.py EDITS
# chunk4), against the shipped single copy: float64 checks of both, graph replay of many calls, 15 rounds.
#   bash scripts/session44_run13.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 120 python3 scripts/precompile.py --jobs 16 --match kv2ovcl 2>&1 | tail -1
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 240 python3 scripts/cluster_tree_ab.py --out "$OUT" --precompile 14 --rounds 15 --call 13 --checks cl2n64@chunk4,cl2@chunk4
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
