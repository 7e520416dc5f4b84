#!/bin/bash
# Session 48 call 11: issue 5's (1,8,512,64) and neighbours on the two-CTA cluster builds, this session's module against
# 47205c3's (kernels/_ab_prev.py, carried), graph replay (cluster_tree_ab --call 29, timing only, 21 rounds).
#   bash scripts/session48_run11.sh   (carry [".whl", "src/dhpfa/kernels/_ab_prev.py"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 200 python3 scripts/cluster_tree_ab.py --out "$OUT" --precompile 10 --rounds 21 --call 29 --timing-only
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
