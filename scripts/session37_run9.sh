#!/bin/bash
# Session 37 call 9: the kvcache graph-plan tests after the fix; counters of the balanced D=128 causal build
# (32,16,512,128) causal; then test_gpu (session34_run1.sh PHASE=b) on the warm machine.
#   bash scripts/session37_run9.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 120 python3 -m pytest -q -m gpu tests/test_varlen.py -p no:cacheprovider \
  -k "kvcache_plan_in_cuda_graph or graph_takes or kvcache_plan_matches" 2>&1 | tail -2
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 150 python3 -m dhpfa counters --shape 32,16,512,128 --causal --out "$OUT/counters" 2>&1 | tail -8
echo "elapsed $(( $(date +%s) - t0 )) s"
TESTS_LIMIT=300 RETRY_LIMIT=60 PHASE=b bash scripts/session34_run1.sh
