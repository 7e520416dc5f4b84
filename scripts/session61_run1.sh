#!/bin/bash
# Session 61 call 1: decode_sms61.py (does decode at 124-136 pairs go at its SMs' pace or DRAM's?), then session 60's
# prepared run 9 (the even parts' full-grid loss against the input sets' L2 residency).
#   bash scripts/session61_run1.sh   (carry [".whl"]; writes under $OUT; about 3 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== decode_sms61 ($(( $(date +%s) - t0 )) s)"
timeout 300 python3 scripts/decode_sms61.py --rounds 7 2>&1 | grep -v Warning
for n in 3 24; do
  echo "== even / equal, $n input sets ($(( $(date +%s) - t0 )) s)"
  timeout 150 python3 scripts/decode_even60.py --time --rounds 9 --sets $n 2>&1 | grep -v Warning
done
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
