#!/bin/bash
# Session 52 call 7: after the cleanup (one round of loads): counters (5 classes x 5 repeats) and dudect (1,000 samples
# a class) at MQA (1,32,1,1,2048,128) through the API, and call 40's timing with the trees pinned (cluster_pull=False).
#   bash scripts/session52_run7.sh   (carry [".whl", "src/dhpfa/kernels/_ab_s52a.py"]; writes under $OUT)
# (_ab_s52a.py is git-ignored: git show a8cae62:src/dhpfa/kernels/sm90_fwd.py > src/dhpfa/kernels/_ab_s52a.py)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
timeout 60 python3 -m dhpfa counters --shape 1,32,1,128,2048,1 --out "$OUT/counters" 2>&1 | tail -3
timeout 40 python3 -m dhpfa leak --shape 1,32,1,128,2048,1 --samples 1000 --out "$OUT/leak" 2>&1 | tail -3
echo "== call 40 timing ($(( $(date +%s) - t0 )) s)"
timeout 120 python3 scripts/cluster_tree_ab.py --out "$OUT/c40" --call 40 --rounds 7 --timing-only --precompile 16 2>&1 | tail -8
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
