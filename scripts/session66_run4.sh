#!/bin/bash
# Session 66 call 4: D=128's balanced whole-pair count at 12-20x the SMs' pairs up to 2,048 keys through the API
# (rule_check --set s66b) against the forward kernels; then the whole test_gpu.py on the final rule (MHA decode as a
# group of one, the new cells).
#   bash scripts/session66_run4.sh   (carry [".whl"]; writes under $OUT; about 6 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== rule_check --set s66b ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 scripts/rule_check.py --set s66b --rounds 7 --out "$OUT"
whole_gpu_tests
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
