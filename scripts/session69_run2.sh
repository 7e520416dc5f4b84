#!/bin/bash
# Session 69 call 2: the stream build's KV-cache form (variants.SWAP_DECODE_KV_STREAM: flash_attn_with_kvcache where
# the dense rule at the cache's length gives the stream build's flat schedule; sm90_decode VARLEN without PAIR_UNITS,
# blocks past a sequence's keys loaded from past the cache's rows): the KV-cache GPU tests (its "flat" cases), memcheck
# / synccheck / racecheck on them, then the call against the form off (the fill or the varlen route), the dense route
# and cuDNN, on full caches and on the same caches half filled (--half).
#   bash scripts/session69_run2.sh   (carry [".whl"]; writes under $OUT; about 8 minutes)
source "$(dirname "$0")/device_prelude.sh"
{
kvcache_tests 200
sanitize_kvcache 150 "(17x32 or 34x32)"
echo "== racecheck, KV-cache flat cases ($(( $(date +%s) - t0 )) s)"
timeout 60 compute-sanitizer --tool racecheck --print-limit 3 python3 -m pytest -q -m gpu tests/test_varlen.py \
  -k "kvcache_decode_on_the_swap_kernels and bf16 and 34x32" -p no:cacheprovider 2>&1 | grep -v "Host Frame" | tail -3
echo "== decode_api_ab --kv-nostream --half ($(( $(date +%s) - t0 )) s)"
timeout 170 python3 scripts/decode_api_ab.py --rounds 5 --d 128,64 --kv-nostream --half \
  --shapes 9:2048,16:4096,17:4096,17:8192,34:4096,40:16384 --out "$OUT" 2>&1 | grep -v Warning
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
