#!/bin/bash
# Session 58 call 1: the merged decode kernel's arrival with a done-word a thread (variants.SWAP_DECODE_MERGE_WIDE)
# against session 57's (thread 0 reads them all): decode_wide58.py (float64 checks of both forms, their bits equal, a
# stress of repeated launches, graph-replay timings against cuDNN), the stamps of both (decode_stamps57.py, shipped
# and --serial), the decode GPU tests.
#   bash scripts/session58_run1.sh   (carry [".whl"]; writes under $OUT; about 7 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== decode_wide58 ($(( $(date +%s) - t0 )) s)"
timeout 240 python3 scripts/decode_wide58.py --rounds 9 --stress 300 2>&1 | grep -v "^$" | tail -40
for form in "" --serial; do
  echo "== decode_stamps57 $form ($(( $(date +%s) - t0 )) s)"
  timeout 80 python3 scripts/decode_stamps57.py --launches 30 --out "$OUT" $form 2>&1 | grep -v "^$" | tail -6
done
decode_tests
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
