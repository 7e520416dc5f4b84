#!/bin/bash
# Session 51 call 2 (CL_PULL_DEFAULT on): cluster_tree_ab call 39 (where one cluster in one exchange wins over more parts
# and over eight), then rule_check --set pull51 (the API with and without the one-exchange meeting, and cuDNN).
#   bash scripts/session51_run2.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
timeout 120 python3 scripts/precompile.py --jobs 16 --match kv --match bf16 2>&1 | tail -1
echo "precompile $(( $(date +%s) - t0 )) s"
timeout 250 python3 scripts/cluster_tree_ab.py --out "$OUT/c39" --call 39 --rounds 7 --precompile 16 --timing-only 2>&1
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 300 python3 scripts/rule_check.py --out "$OUT/rc" --set pull51 --rounds 7 2>&1
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
