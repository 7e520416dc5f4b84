#!/bin/bash
# Session 53 call 2: where the exchange across clusters starts to win (call 43: x16p / x32p / x64p by keys, tiles and
# head dim; graph replay, timing only), and counters (5 classes x 5 repeats) and dudect (1,000 samples a class) at MQA
# (1,32,1,1,16384,128) through the API (32 parts: two clusters of sixteen exchanging, their slices in the workspace).
#   bash scripts/session53_run2.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
timeout 60 python3 -m dhpfa counters --shape 1,32,1,128,16384,1 --out "$OUT/counters" 2>&1 | tail -3
timeout 40 python3 -m dhpfa leak --shape 1,32,1,128,16384,1 --samples 1000 --out "$OUT/leak" 2>&1 | tail -3
echo "== call 43 timing ($(( $(date +%s) - t0 )) s)"
timeout 300 python3 scripts/cluster_tree_ab.py --out "$OUT/c43" --call 43 --rounds 11 --timing-only --precompile 16 2>&1 | tail -16
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
