#!/bin/bash
# Session 67 call 5: flash_attn_with_kvcache's decode steps on the swap decode kernels' KV-cache builds (variants.
# decode_kv_choice, sm90_decode VARLEN): the kvcache GPU tests (the new test and every earlier one: plans, graphs,
# decode loops, leftpad), the decode GPU tests (the merged / split kernels' source changed; dense SASS unchanged
# offline), decode_api_ab against call 4, memcheck / synccheck over the new test's bf16 cases.
#   bash scripts/session67_run5.sh   (carry [".whl"]; writes under $OUT; about 5 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
kvcache_tests 240
decode_tests
echo "== decode_api_ab ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 scripts/decode_api_ab.py --rounds 5 --d 128,64 \
  --shapes 1:4096,1:32768,4:16384,8:4096,16:4096,32:1024,32:4096,64:2048,128:1024 --out "$OUT" 2>&1 | grep -v Warning
sanitize_kvcache 150
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
