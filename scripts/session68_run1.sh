#!/bin/bash
# Prepared at the end of session 67 for the next session (not run): the KV-cache call at 40-512 pairs, where the dense
# rule takes no parts (the forward kernels' packed tiles, the stream / whole-pair builds: no KV-cache form) and
# flash_attn_with_kvcache keeps the varlen route (call 6:
# 4-54% behind flash_attn_func at 64-512 pairs), against the merged KV-cache build in max(1, SMs // pairs) parts
# (variants.SWAP_DECODE_KV_FILL, off). with_kvcache_fill vs with_kvcache vs flash_attn_func vs cuDNN.
#   bash scripts/session68_run1.sh   (carry [".whl"]; writes under $OUT; about 2 minutes)
source "$(dirname "$0")/device_prelude.sh"
{
echo "== decode_api_ab --kv-fill 132 ($(( $(date +%s) - t0 )) s)"
timeout 300 python3 scripts/decode_api_ab.py --rounds 5 --d 128,64 --kv-fill 132 \
  --shapes 5:4096,8:1024,8:4096,8:16384,12:4096,16:1024,16:4096,16:16384,32:1024,64:1024 --out "$OUT" \
  2>&1 | grep -v Warning
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
