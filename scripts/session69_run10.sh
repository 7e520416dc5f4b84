#!/bin/bash
# Session 69 call 10 (the final source): every KV-cache GPU test of test_varlen.py (the paged merged / split / stream
# forms and the NaN test included).
#   bash scripts/session69_run10.sh   (carry [".whl"]; writes under $OUT; about 2 minutes)
source "$(dirname "$0")/device_prelude.sh"
{
kvcache_tests 200
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
