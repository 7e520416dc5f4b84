#!/bin/bash
# Session 44 call 14: the two-CTA cluster's even split at D <= 64 on 128-key blocks (sm90_fwd.cluster_even): the
# few-program GPU tests, and graph replay of many calls against the build before it (kernels/_ab_prev.py, carried).
#   bash scripts/session44_run14.sh   (carry [".whl", "src/dhpfa/kernels/_ab_prev.py"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 120 python3 scripts/precompile.py --jobs 16 --match kv2 2>&1 | tail -1
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 200 python3 -m pytest -m gpu -q -n 14 --dist loadgroup -p no:cacheprovider tests/test_gpu.py \
  -k "few_program or (launched_binary_is_the_audited_binary and kv2)" 2>&1 | tail -3
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 240 python3 scripts/cluster_tree_ab.py --out "$OUT" --precompile 14 --rounds 21 --call 14 --timing-only
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
