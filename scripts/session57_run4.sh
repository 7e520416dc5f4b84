#!/bin/bash
# Session 57 call 4: the merged decode kernel's stamps (scripts/decode_stamps57.py: main loop, arrival, merge, clear).
#   bash scripts/session57_run4.sh   (carry [".whl"]; writes under $OUT; about 1 minute)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== decode_stamps57 ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 scripts/decode_stamps57.py --launches 30 --out "$OUT" 2>&1 | grep -v "^$" | tail -20
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
