#!/bin/bash
# Session 52 call 8 (an experiment, not shipped): the exchange's staged / done signals as phases 2 / 3 of the cluster
# barrier (docs/experiments/session52_clpull_cluster_phases.diff) against the shipped mbarrier signals: call 41's float64
# checks, bitwise repeats and graph-replay timing.
#   git apply the diff to a copy of sm90_fwd.py saved as src/dhpfa/kernels/_ab_cphase.py (git-ignored), then
#   bash scripts/session52_run8.sh   (carry [".whl", "src/dhpfa/kernels/_ab_cphase.py"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
timeout 200 python3 scripts/cluster_tree_ab.py --out "$OUT/c41" --call 41 --rounds 9 --precompile 16 2>&1 | tail -14
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
