#!/bin/bash
# Session 67 call 8: the kvcache GPU tests after the lse copy moved behind return_softmax_lse (the last source change).
#   bash scripts/session67_run8.sh   (carry [".whl"]; writes under $OUT; about 1 minute)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
kvcache_tests 150
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
