#!/bin/bash
# Session 54 call 3: where the API stands against cuDNN and FlashAttention-2 on serving shapes after sessions 48-53's
# decode work (peer_sweep --set wide3, session 47's 46 cells: decode of grouped heads over 1-64 sequences and 1,024-65,536
# keys, MHA / MQA decode, chunks against caches; last read in session 47 on an H100), to pick the next target; then
# session 40-50's short-cell question on this H200 (peer_sweep --set wide, D = 64 / 128).
#   bash scripts/session54_run3.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
timeout 200 python3 scripts/peer_sweep.py --out "$OUT/wide3" --set wide3 --precompile 15 --rounds 9 --budget-s 150 2>&1 | grep -E "^D=|cells"
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 200 python3 scripts/peer_sweep.py --out "$OUT/wide" --set wide --precompile 15 --rounds 7 --budget-s 120 2>&1 | grep -E "^D=|cells"
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
