#!/bin/bash
# Session 69 call 6 (the final source): the KV-cache GPU tests (the D=64 WIDE case added), then the call at D=64 past
# twice the SMs' pairs on the stream form's WIDE rule against it off (the varlen route), full and half-filled caches,
# and a map of both head dims' stream / whole-pair / fill cells with paged caches (pages of 256).
#   bash scripts/session69_run6.sh   (carry [".whl"]; writes under $OUT; about 5 minutes)
source "$(dirname "$0")/device_prelude.sh"
{
kvcache_tests 200
echo "== decode_api_ab D=64 WIDE --kv-nostream --half ($(( $(date +%s) - t0 )) s)"
timeout 90 python3 scripts/decode_api_ab.py --rounds 5 --d 64 --kv-nostream --half \
  --shapes 34:4096,34:8192,40:16384 --out "$OUT/wide" 2>&1 | grep -v Warning
echo "== decode_api_ab map --paged 256 --odd ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 scripts/decode_api_ab.py --rounds 5 --d 128,64 --paged 256 --odd \
  --shapes 8:4096,17:4096,20:8192,34:4096,50:2048,64:1024 --out "$OUT/map" 2>&1 | grep -v Warning
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
