#!/bin/bash
# Session 43 call 15: after the review (dispatch._launch keeps a cluster build's launcher at the one caching site), the
# GPU tests that launch the cluster builds through the API again.
#   bash scripts/session43_run15.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 150 python3 scripts/precompile.py --match kv2 2>&1 | tail -1
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 200 python3 -m pytest -m gpu -q -n 14 --dist loadgroup -p no:cacheprovider tests/test_gpu.py \
  -k "few_program or (launched_binary_is_the_audited_binary and kv2)" 2>&1 | tail -3
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
