#!/bin/bash
# Session 45 call 3: after the D=128 cluster threshold (variants.cluster_seq) and the test updates: the few-program GPU
# tests, the launched-binary tests of the cluster builds, compute-sanitizer memcheck / synccheck over the cluster cases
# (now with 72 programs: the two-CTA clusters two an SM), the counters and dudect at a 128-tile shape on the new build.
#   bash scripts/session45_run3.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 150 python3 scripts/precompile.py --jobs 16 --match kv2 2>&1 | tail -1
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 240 python3 -m pytest -m gpu -q -n 14 --dist loadgroup -p no:cacheprovider tests/test_gpu.py \
  -k "few_program or clusters_two_an_sm or clusters_from_384 or (launched_binary_is_the_audited_binary and kv2)" 2>&1 | tail -4
echo "elapsed $(( $(date +%s) - t0 )) s"
for tool in memcheck synccheck; do
  timeout 150 compute-sanitizer --tool $tool --kernel-name kns=attn_fwd python3 scripts/sanitize_clusters.py 2>&1 | tail -2
done
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 150 python3 -m dhpfa counters --out "$OUT/counters" --shape 1,16,512,64,2048,16 2>&1 | tail -25
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 120 python3 -m dhpfa leak --out "$OUT/leak" --shape 1,16,512,64,2048,16 --samples 1000 2>&1 | tail -12
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
