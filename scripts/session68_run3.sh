#!/bin/bash
# Session 68 call 3: the fill on (variants.SWAP_DECODE_KV_FILL = 2: up to 2x the SMs' pairs where no dense parts rule
# is, max(1, SMs // pairs) parts, at most the cache's key blocks): the KV-cache GPU tests (with the fill's cases), the
# decode tests, memcheck / synccheck on the fill's test cases, and the KV-cache call against the fill off at short caches
# and at the edges (decode_api_ab.py --kv-nofill).
#   bash scripts/session68_run3.sh   (carry [".whl"]; writes under $OUT; about 5 minutes)
source "$(dirname "$0")/device_prelude.sh"
{
kvcache_tests 240
decode_tests
echo "== decode_api_ab --kv-nofill ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 scripts/decode_api_ab.py --rounds 5 --d 128,64 --kv-nofill \
  --shapes 1:256,1:1000,4:512,8:256,8:2048,24:2048,33:1024,33:4096 --out "$OUT" 2>&1 | grep -v Warning
sanitize_kvcache 200 "(8x32 or 17x32 or 1x32/8-1000 or 5x32)"
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
