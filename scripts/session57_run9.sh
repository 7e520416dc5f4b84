#!/bin/bash
# Session 57 call 9: the part states stored with 16-byte stores before the arrival (decode_vecstore57.py; stamps with
# decode_stamps57.py --async-merge [--vec-store]).
#   bash scripts/session57_run9.sh   (carry [".whl"]; writes under $OUT; about 1.5 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== decode_vecstore57 ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 scripts/decode_vecstore57.py --rounds 9 2>&1 | grep -v "^$" | tail -12
for a in "--async-merge" "--async-merge --vec-store"; do
  echo "== decode_stamps57 $a ($(( $(date +%s) - t0 )) s)"
  timeout 100 python3 scripts/decode_stamps57.py --launches 30 --out "$OUT" $a 2>&1 | grep -v "^$" | tail -6
done
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
