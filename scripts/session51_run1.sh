#!/bin/bash
# Session 51 call 1: the one-exchange cluster meeting (sm90_fwd CL_PULL): float64 checks of x16p / o8p / q4p (call 38's
# CHECKS), bitwise repeats, then graph-replay timing against the trees of levels (x16 / o8 / q4), the API and cuDNN.
#   bash scripts/session51_run1.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
timeout 560 python3 scripts/cluster_tree_ab.py --out "$OUT/c38" --call 38 --rounds 9 --precompile 16 2>&1
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
