#!/bin/bash
# Session 57 call 11: the merged decode kernel's arrival split by stamps inside it (decode_stamps57.py: the release
# store, the SC fence, the words' loads, the acquire), the shipped form.
#   bash scripts/session57_run11.sh   (carry [".whl"]; writes under $OUT; about 1 minute)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== decode_stamps57 --async-merge ($(( $(date +%s) - t0 )) s)"
timeout 100 python3 scripts/decode_stamps57.py --launches 30 --out "$OUT" --async-merge 2>&1 | grep -v "^$" | tail -6
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
