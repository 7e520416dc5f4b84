#!/bin/bash
# Session 46 call 2: (a) packed decode over long keys (call 1's wide sweep: (1,32,8,1,32768) D=64 36.2 us against
# cuDNN's 29.5): the split-KV builds on deeper K/V rings and with twice the parts (cluster_tree_ab.py --call 20, float64
# checks, bitwise repeats, graph replay); (b) D=64 where the wave rule takes the short tiles and cuDNN leads: the
# two-consumer 128-row persistent builds (wave_rule_ab.py --x2).
#   bash scripts/session46_run2.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 300 python3 scripts/cluster_tree_ab.py --out "$OUT" --precompile 14 --rounds 15 --call 20
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 240 python3 scripts/wave_rule_ab.py --out "$OUT" --x2 --rounds 9
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
