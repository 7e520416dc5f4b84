#!/bin/bash
# Session 57 call 5: the merge from shared memory (sm90_decode._merge_parts ASYNC; scripts/decode_async57.py: float64
# checks, then the shipped build / async forms / cuDNN), and its stamps (decode_stamps57.py --async-merge).
#   bash scripts/session57_run5.sh   (carry [".whl"]; writes under $OUT; about 2 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== decode_async57 ($(( $(date +%s) - t0 )) s)"
timeout 300 python3 scripts/decode_async57.py --rounds 7 2>&1 | grep -v "^$" | tail -50
echo "== decode_stamps57 --async-merge ($(( $(date +%s) - t0 )) s)"
timeout 100 python3 scripts/decode_stamps57.py --launches 30 --out "$OUT" --async-merge 2>&1 | grep -v "^$" | tail -8
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
