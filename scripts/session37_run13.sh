#!/bin/bash
# Session 37 call 13: where decode steps stand with this session's code (decode_api_ab.py: flash_attn_func, kvcache with
# a tensor of lengths and with an int, SDPA cuDNN / flash), D=64 / 128 / 256, graph replay, 5 rounds.
#   bash scripts/session37_run13.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 400 python3 scripts/decode_api_ab.py --rounds 5 --d 64,128,256 --out "$OUT" 2>&1 | grep -v "^$"
echo "elapsed $(( $(date +%s) - t0 )) s"
