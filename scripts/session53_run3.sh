#!/bin/bash
# Session 53 call 3: the rule (variants.FEW_ROWS_PULL_SPLIT) and kernels through the API against session 52's (rule_check
# --set pull53, with cuDNN); counters and dudect at MQA (1,32,1,1,8192,128) (64 parts: four clusters, two workspace
# levels); the whole test_gpu.py; memcheck / synccheck over sanitize_clusters.py.
#   bash scripts/session53_run3.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
timeout 60 python3 -m dhpfa counters --shape 1,32,1,128,8192,1 --out "$OUT/counters" 2>&1 | tail -3
timeout 40 python3 -m dhpfa leak --shape 1,32,1,128,8192,1 --samples 1000 --out "$OUT/leak" 2>&1 | tail -3
echo "== rule_check pull53 ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 scripts/rule_check.py --out "$OUT/rule" --set pull53 --rounds 9 2>&1 | tail -19
echo "== precompile ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 scripts/precompile.py --jobs 16 2>&1 | tail -1
timeout 140 python3 -m pytest -q -m gpu -n 6 --dist loadgroup tests/test_gpu.py -o cache_dir=build/pcb -rf \
  > "$OUT/gpu_tests.log" 2>&1
echo "test_gpu rc $? ($(( $(date +%s) - t0 )) s)"; grep -E "passed|failed" "$OUT/gpu_tests.log" | tail -2
grep "^FAILED" "$OUT/gpu_tests.log" | head -20
for tool in memcheck synccheck; do
  echo "== $tool sanitize_clusters ($(( $(date +%s) - t0 )) s)"
  timeout 80 compute-sanitizer --tool $tool --kernel-name kns=attn_fwd python3 scripts/sanitize_clusters.py 2>&1 | tail -2
done
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
