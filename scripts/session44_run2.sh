#!/bin/bash
# Session 44 call 2: the meeting's staged O swizzled (sm90_fwd CL_SWIZZLE): float64 checks of the cluster builds of 2, 4
# and 8 CTAs, bitwise repeats, and graph-replay timing against CL_SWIZZLE off and the two-CTA builds of HEAD before this
# session (kernels/_ab_head.py: `git show 4c4dea1:src/dhpfa/kernels/sm90_fwd.py`, carried), then the two-CTA GPU test.
#   bash scripts/session44_run2.sh   (carry [".whl", "src/dhpfa/kernels/_ab_head.py"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 120 python3 scripts/precompile.py --jobs 16 --match kv --match bf16-d128 2>&1 | tail -1
timeout 120 python3 scripts/precompile.py --jobs 16 --match kv --match bf16-d64- 2>&1 | tail -1
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 420 python3 scripts/cluster_tree_ab.py --out "$OUT" --precompile 14 --rounds ${ROUNDS:-11} --call 2
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 100 python3 -m pytest -m gpu -q -n 14 --dist loadgroup -p no:cacheprovider tests/test_gpu.py \
  -k "clusters_of_two" 2>&1 | tail -3
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
