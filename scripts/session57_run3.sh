#!/bin/bash
# Session 57 call 3: two-pair decode at D=128, where the time goes (scripts/decode_two_pairs57.py: merged 32 / 64 parts,
# 128- / 64-key blocks, the swap kernel alone at 16-64 parts, cuDNN).
#   bash scripts/session57_run3.sh   (carry [".whl"]; writes under $OUT; about 2 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== decode_two_pairs57 ($(( $(date +%s) - t0 )) s)"
timeout 300 python3 scripts/decode_two_pairs57.py --rounds 7 2>&1 | grep -v "^$" | tail -30
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
