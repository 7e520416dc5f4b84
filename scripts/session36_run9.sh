#!/bin/bash
# Session 36 call 9: one decode step through flash_attn_func (dense route) and flash_attn_with_kvcache (varlen route),
# beside torch SDPA's cuDNN and flash backends (decode_api_ab.py).
#   bash scripts/session36_run9.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 300 python3 scripts/decode_api_ab.py --rounds 5 --out "$OUT" 2>&1 | tail -14
echo "elapsed $(( $(date +%s) - t0 )) s"
