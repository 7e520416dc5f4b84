#!/bin/bash
# Session 42 call 4: the descriptor prefetch (sm90_fwd PREFETCH_DESC, on in the tree) against the same builds without
# it, graph replay, short calls and a few-program split-KV call (scripts/prefetch_ab.py).
#   git apply docs/experiments/session42_prefetch_desc.diff; bash scripts/session42_run4.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 400 python3 scripts/prefetch_ab.py --rounds 15 --out "$OUT" 2>&1 | grep -v "^$" | tail -20
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
