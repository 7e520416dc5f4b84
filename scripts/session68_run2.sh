#!/bin/bash
# Session 68 call 2: the KV-cache call at 40-512 pairs in forced part counts of the merged / split KV-cache builds
# (decode_api_ab.py --kv-parts: which count to take where the dense rule takes no parts; call 1: the prepared fill,
# max(1, SMs // pairs) parts, won over the varlen route at 40-128 pairs but stayed 2-17% behind the dense route), and
# the KV-cache counters runs with the warm-up fix (call 1: the kept plan's first call's arange launch split the calls).
#   bash scripts/session68_run2.sh   (carry [".whl"]; writes under $OUT; about 4 minutes)
source "$(dirname "$0")/device_prelude.sh"
{
echo "== decode_api_ab --kv-parts 1,2,3,4,6 ($(( $(date +%s) - t0 )) s)"
timeout 400 python3 scripts/decode_api_ab.py --rounds 5 --d 128,64 --kv-parts 1,2,3,4,6 \
  --shapes 5:4096,8:1024,8:4096,8:16384,12:4096,16:1024,16:4096,16:16384,32:1024,32:4096,64:1024 --out "$OUT" \
  2>&1 | grep -v Warning
for s in 1,32,1,128,8192,8 4,32,1,64,2048,8; do
  echo "== counters --kvcache --rounds 5 $s ($(( $(date +%s) - t0 )) s)"
  timeout 150 python3 -m dhpfa counters --kvcache --shape $s --rounds 5 --out "$OUT/kv_counters_${s//,/_}" 2>&1 | tail -6
  rm -f "$OUT"/kv_counters_${s//,/_}/*.csv
done
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
