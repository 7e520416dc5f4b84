#!/bin/bash
# Session 49 call 4: clusters of eight with level 2's ready mbarrier (sm90_fwd _CL_OPEN_READY / _CL_TELL) and 32 / 64
# parts as clusters of eight at D = 96 / 128 in the rule: float64 checks and repeats (cluster_tree_ab --call 32, with
# timing against the ready word of calls 2-3 as @prev); the API with / without clusters of eight (rule_check --set
# octs49, its MQA cases added); compute-sanitizer over sanitize_clusters.py; counters twice and dudect at decode shapes
# that run them.
#   bash scripts/session49_run4.sh   (carry [".whl", "src/dhpfa/kernels/_ab_prev.py"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
timeout 200 python3 scripts/precompile.py --jobs 16 --match kv 2>&1 | tail -1
echo "precompile $(( $(date +%s) - t0 )) s"
timeout 150 python3 scripts/cluster_tree_ab.py --out "$OUT/ab32" --call 32 --precompile 14 --rounds 15 2>&1
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 170 python3 scripts/rule_check.py --out "$OUT" --rounds 9 --set octs49
echo "elapsed $(( $(date +%s) - t0 )) s"
for tool in memcheck synccheck; do
  echo "== $tool"; timeout 80 compute-sanitizer --tool $tool --kernel-name kns=attn_fwd python3 scripts/sanitize_clusters.py 2>&1 | tail -2
done
for s in 1,32,1,128,4096,8 1,32,1,128,8192,1; do
  timeout 80 python3 -m dhpfa counters --out "$OUT/counters_$s" --shape $s 2>&1 | tail -1
done
timeout 70 python3 -m dhpfa leak --out "$OUT/leak" --shape 1,32,1,128,8192,1 --samples 1000 2>&1 | tail -2
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
