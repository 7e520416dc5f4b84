#!/bin/bash
# Session 45 call 10: after the D=32 two-an-SM threshold (FEW_PROGRAMS_CLUSTER_2X_EARLY) and D=96's cluster threshold
# (FEW_PROGRAMS_CLUSTER_EARLY): the cluster and few-program GPU tests, graphs of one call for D=32 at 512 / 768 keys.
#   bash scripts/session45_run10.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 100 python3 scripts/precompile.py --jobs 16 --match kv2 2>&1 | tail -1
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 200 python3 -m pytest -m gpu -q -n 14 --dist loadgroup -p no:cacheprovider tests/test_gpu.py \
  -k "few_program or clusters_two_an_sm or clusters_from or fill_the_last_wave or (launched_binary_is_the_audited_binary and kv2)" 2>&1 | tail -4
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 100 python3 scripts/small_graph_ab.py --out "$OUT" --rounds 9 --configs api_prev \
  --shapes 1:16:512:32:512,1:16:512:32:768,1:16:512:64:2048
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
