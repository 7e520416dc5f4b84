#!/bin/bash
# Session 67 call 4: flash_attn_with_kvcache (a tensor of cache lengths: the varlen route) against flash_attn_func (the
# swap decode kernels) and cuDNN on full caches, one query a sequence, 32 / 8 heads, D = 128 / 64, from 1 to 256
# sequences: how far the KV-cache API is from the dense decode route the sessions 54-67 built.
#   bash scripts/session67_run4.sh   (carry [".whl"]; writes under $OUT; about 2 minutes)
source "$(dirname "$0")/device_prelude.sh"
{
echo "== decode_api_ab ($(( $(date +%s) - t0 )) s)"
timeout 400 python3 scripts/decode_api_ab.py --rounds 5 --d 128,64 \
  --shapes 1:4096,1:32768,4:16384,8:4096,16:4096,32:1024,32:4096,64:2048,128:1024,128:4096,256:1024 --out "$OUT" \
  2>&1 | grep -v Warning
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
