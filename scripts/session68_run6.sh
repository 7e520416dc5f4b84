#!/bin/bash
# Session 68 call 6: the whole-pair builds' KV-cache form (variants.SWAP_DECODE_KV_WHOLE: flash_attn_with_kvcache where
# the dense rule at the cache's length gives the whole-pair builds, sm90_decode VARLEN with PAIR_UNITS): the KV-cache
# GPU tests (its cases), the decode tests, memcheck / synccheck on its cases, the call against it off (the fill or the
# varlen route) and the dense route, and its first counters / dudect runs.
#   bash scripts/session68_run6.sh   (carry [".whl"]; writes under $OUT; about 5 minutes)
source "$(dirname "$0")/device_prelude.sh"
{
kvcache_tests 240
sanitize_kvcache 200 "(64x32 or 48x32 or 33x32 or 29x32)"
echo "== decode_api_ab --kv-nowhole ($(( $(date +%s) - t0 )) s)"
timeout 240 python3 scripts/decode_api_ab.py --rounds 5 --d 128,64 --kv-nowhole \
  --shapes 17:2048,20:2048,24:2048,32:1024,33:1024,64:1024,64:4096,128:1024,256:1024 --out "$OUT" 2>&1 | grep -v Warning
s=64,32,1,128,1024,8
echo "== counters --kvcache --rounds 3 $s ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 -m dhpfa counters --kvcache --shape $s --rounds 3 --out "$OUT/kv_counters" 2>&1 | tail -12
rm -f "$OUT"/kv_counters/*.csv
echo "== leak --kvcache $s ($(( $(date +%s) - t0 )) s)"
timeout 60 python3 -m dhpfa leak --kvcache --shape $s --samples 2000 --out "$OUT/kv_leak" 2>&1 | tail -3
decode_tests
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
