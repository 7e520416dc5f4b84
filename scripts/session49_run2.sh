#!/bin/bash
# Session 49 call 2: clusters of eight CTAs (sm90_fwd CLUSTER_N = 8, configs o8 / o16) against the quads at the same
# part counts, and the quads against their binaries before the generalised meeting (@prev = 27cb87c's sm90_fwd):
# float64 checks, bitwise repeats, graph-replay timing (cluster_tree_ab.py --call 30).
#   bash scripts/session49_run2.sh   (carry [".whl", "src/dhpfa/kernels/_ab_prev.py"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 500 python3 scripts/cluster_tree_ab.py --out "$OUT" --call 30 --precompile 14 --rounds 15
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
