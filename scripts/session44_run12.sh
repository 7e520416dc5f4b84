#!/bin/bash
# Session 44 call 12: the two tests call 11's whole-suite run failed on (both from session 43's cluster builds: a stale
# expectation, and a new clustered copy per launcher, so a JIT-path launch returned another kernel object), with the
# few-program GPU tests again.
#   bash scripts/session44_run12.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 120 python3 scripts/precompile.py --jobs 16 --match kv2 2>&1 | tail -1
timeout 120 python3 scripts/precompile.py --jobs 16 --match bf16-d128 2>&1 | tail -1
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 240 python3 -m pytest -m gpu -q -n 14 --dist loadgroup -p no:cacheprovider tests/test_gpu.py \
  -k "top_left_causal or cached_launch_equals_jit_launch or few_program" 2>&1 | tail -3
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
