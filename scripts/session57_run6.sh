#!/bin/bash
# Session 57 call 6: the merge from shared memory with rounds past the grid's parts skipped (decode_async57.py), and
# the arrival's parts in stamps (decode_stamps57.py: shipped, timing probes 1 (no SC fence) and 2 (relaxed store),
# the async merge).
#   bash scripts/session57_run6.sh   (carry [".whl"]; writes under $OUT; about 2 minutes)
# (Run at commit 7913017: decode_stamps57.py's --probe and sm90_decode's ARRIVE_PROBE were removed after this call.)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== decode_async57 ($(( $(date +%s) - t0 )) s)"
timeout 300 python3 scripts/decode_async57.py --rounds 9 2>&1 | grep -v "^$" | grep -v "OK$" | tail -30
for a in "" "--probe 1" "--probe 2" "--async-merge"; do
  echo "== decode_stamps57 $a ($(( $(date +%s) - t0 )) s)"
  timeout 100 python3 scripts/decode_stamps57.py --launches 30 --out "$OUT" $a 2>&1 | grep -v "^$" | tail -6
done
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
