#!/bin/bash
# Prepared at the end of session 67 for the next session (not run): the KV-cache call at 40-512 pairs, where the dense
# rule takes no parts (the forward kernels' packed tiles, the stream / whole-pair builds: no KV-cache form) and
# flash_attn_with_kvcache keeps the varlen route (call 6:
# 4-54% behind flash_attn_func at 64-512 pairs), against the merged KV-cache build in max(1, SMs // pairs) parts
# (variants.SWAP_DECODE_KV_FILL, off). with_kvcache_fill vs with_kvcache vs flash_attn_func vs cuDNN. Then the KV-cache
# builds' first counters / dudect runs (`dhpfa counters / leak --kvcache`, session 67, offline-tested only): the split
# build at 8 pairs (one sequence, 16 parts) and the merged one at 32 pairs (4 sequences of 2,048-1,655 keys, 4 parts).
#   bash scripts/session68_run1.sh   (carry [".whl"]; writes under $OUT; about 5 minutes)
source "$(dirname "$0")/device_prelude.sh"
{
echo "== decode_api_ab --kv-fill 132 ($(( $(date +%s) - t0 )) s)"
timeout 300 python3 scripts/decode_api_ab.py --rounds 5 --d 128,64 --kv-fill 132 \
  --shapes 5:4096,8:1024,8:4096,8:16384,12:4096,16:1024,16:4096,16:16384,32:1024,64:1024 --out "$OUT" \
  2>&1 | grep -v Warning
for s in 1,32,1,128,8192,8 4,32,1,64,2048,8; do
  echo "== counters --kvcache --rounds 5 $s ($(( $(date +%s) - t0 )) s)"
  timeout 150 python3 -m dhpfa counters --kvcache --shape $s --rounds 5 --out "$OUT/kv_counters_${s//,/_}" 2>&1 | tail -10
  rm -f "$OUT"/kv_counters_${s//,/_}/*.csv
  echo "== leak --kvcache $s ($(( $(date +%s) - t0 )) s)"
  timeout 60 python3 -m dhpfa leak --kvcache --shape $s --samples 2000 --out "$OUT/kv_leak_${s//,/_}" 2>&1 | tail -3
done
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
