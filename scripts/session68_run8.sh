#!/bin/bash
# Session 68 call 8 (the device time's last minutes): racecheck over a whole-pair KV-cache case and a fill case (the
# test's calls: checked, planned, graph replay), and decode_api_ab.py's columns after their helpers became one
# (kv_with), at two cells.
#   bash scripts/session68_run8.sh   (carry [".whl"]; writes under $OUT; about 2 minutes)
source "$(dirname "$0")/device_prelude.sh"
{
echo "== racecheck, KV-cache whole-pair and fill cases ($(( $(date +%s) - t0 )) s)"
timeout 100 compute-sanitizer --tool racecheck --print-limit 3 python3 -m pytest -q -m gpu tests/test_varlen.py \
  -k "kvcache_decode_on_the_swap_kernels and bf16 and (48x32 or 8x32)" -p no:cacheprovider 2>&1 \
  | grep -v "Host Frame" | tail -4
echo "== decode_api_ab ($(( $(date +%s) - t0 )) s)"
timeout 45 python3 scripts/decode_api_ab.py --rounds 3 --d 64 --kv-nowhole --kv-nofill --kv-fill 2 --kv-parts 1 \
  --shapes 8:4096,32:1024 --out "$OUT" 2>&1 | grep -v Warning
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
