#!/bin/bash
# Session 44 call 1: clusters of 4 and 8 CTAs meeting in a tree (sm90_fwd CLUSTER generalised): the API's split builds and
# the experiment's builds precompiled, float64 checks, bitwise repeats and graph-replay timing (scripts/cluster_tree_ab.py),
# then the two-CTA cluster builds' GPU test (their binaries changed with the generalisation).
#   bash scripts/session44_run1.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 120 python3 scripts/precompile.py --jobs 16 --match kv --match bf16-d128 2>&1 | tail -1
timeout 120 python3 scripts/precompile.py --jobs 16 --match kv --match bf16-d64- 2>&1 | tail -1
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 420 python3 scripts/cluster_tree_ab.py --out "$OUT" --precompile 14 --rounds ${ROUNDS:-11}
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 100 python3 -m pytest -m gpu -q -n 14 --dist loadgroup -p no:cacheprovider tests/test_gpu.py \
  -k "clusters_of_two" 2>&1 | tail -3
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
