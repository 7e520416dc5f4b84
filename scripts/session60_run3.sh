#!/bin/bash
# Session 60, call 3: the even parts against the equal parts launched alike (decode_even60.py --time), and the fill
# rule's next edges (decode_even60.py --fill).
#   bash scripts/session60_run3.sh   (carry [".whl"]; writes under $OUT; about 2 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== even / equal ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 scripts/decode_even60.py --time --rounds 11 2>&1 | grep -v Warning
echo "== fill edges ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 scripts/decode_even60.py --fill --rounds 7 2>&1 | grep -v Warning
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
