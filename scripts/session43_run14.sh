#!/bin/bash
# Session 43 call 14: graphs of one call (as call 13) past 512 keys, where the cluster builds' kernel gain should cover
# their launch: 512 queries, 8 heads, 768 / 1,024 / 2,048 keys at D=64, 1,024 at D=128 (scripts/small_graph_ab.py).
#   bash scripts/session43_run14.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 200 python3 scripts/small_graph_ab.py --rounds 9 --configs x1,kv2,cl2,cl2_n64 \
  --shapes 1:8:512:64:768,1:8:512:64:1024,1:8:512:64:2048,1:8:512:128:1024 --out "$OUT"; echo "rc $?"
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
