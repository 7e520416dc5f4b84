#!/bin/bash
# Session 46 call 4: the second wide peer sweep (peer_sweep.py --set wide2: D = 32 / 96 / 192, odd lengths and batches,
# grouped prefill, speculative-decoding query counts, fewer queries than keys, fp16 at D=256) on this session's rules.
#   bash scripts/session46_run4.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 240 python3 scripts/peer_sweep.py --out "$OUT" --set wide2 --precompile 15 --rounds 5 --budget-s 150
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
