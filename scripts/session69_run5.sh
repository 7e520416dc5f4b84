#!/bin/bash
# Session 69 call 5: D=64 at 272-320 (sequence, key/value head) pairs, where the dense route runs the forward kernels
# (decode_choice None) and flash_attn_with_kvcache the varlen route (call 3: 19% and 7% behind flash_attn_func at (34,
# 4,096) and (40, 16,384)): the stream build's KV-cache form forced (decode_api_ab --kv-stream: 264 programs, the dense
# stream build's two an SM at D=64; then 132), on full and half-filled caches.
#   bash scripts/session69_run5.sh   (carry [".whl"]; writes under $OUT; about 3 minutes)
source "$(dirname "$0")/device_prelude.sh"
{
echo "== decode_api_ab --kv-stream 264 --half ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 scripts/decode_api_ab.py --rounds 5 --d 64 --kv-stream 264 --half \
  --shapes 34:4096,34:8192,40:4096,40:16384,48:16384 --out "$OUT/s264" 2>&1 | grep -v Warning
echo "== decode_api_ab --kv-stream 132 ($(( $(date +%s) - t0 )) s)"
timeout 60 python3 scripts/decode_api_ab.py --rounds 5 --d 64 --kv-stream 132 \
  --shapes 34:4096,40:16384 --out "$OUT/s132" 2>&1 | grep -v Warning
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
