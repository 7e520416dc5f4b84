#!/bin/bash
# Session 45's prepared call 12 (NOT RUN: the session's device time ran out; for the next session): D=128 grids of
# 67-132 tiles on the two-CTA cluster at two CTAs an SM with two stages of 64-key blocks, which fits only with the tight
# meeting-area offset (sm90_fwd.cluster_offset(tight=True): 115,608 bytes against 115,712 allowed; offline,
# tests/test_sm90_fwd.py::test_tight_cluster_offset_clears_tritons_allocation). First how many of its clusters are
# resident (cluster_occupancy.py: 132 expected), then float64 checks, bitwise repeats and graph-replay timing against
# the API (split keys in one program there) and the one-stage build (cluster_tree_ab.py --call 19).
#   bash scripts/session45_run12.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 120 python3 scripts/cluster_occupancy.py 2>&1 | tail -7
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 300 python3 scripts/cluster_tree_ab.py --out "$OUT" --precompile 14 --rounds 15 --call 19
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
