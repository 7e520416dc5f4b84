#!/bin/bash
# Session 67 call 6 (call 5 again after its fixes: int addresses in the kept launchers' tail, num_splits > 0 keeps the portable kernel): flash_attn_with_kvcache's decode steps on the swap decode kernels' KV-cache builds (variants.
# decode_kv_choice, sm90_decode VARLEN): the kvcache GPU tests (the new test and every earlier one: plans, graphs,
# decode loops, leftpad), the decode GPU tests (the merged / split kernels' source changed; dense SASS unchanged
# offline), decode_api_ab against call 4, memcheck / synccheck over the new test's bf16 cases.
#   bash scripts/session67_run5.sh   (carry [".whl"]; writes under $OUT; about 3 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== kvcache GPU tests ($(( $(date +%s) - t0 )) s)"
timeout 240 python3 -m pytest -q -m gpu -n 8 tests/test_varlen.py -k "kvcache" -o cache_dir=build/pcb -rf \
  > "$OUT/kv_tests.log" 2>&1
echo "rc $? ($(( $(date +%s) - t0 )) s)"; grep -E "passed|failed" "$OUT/kv_tests.log" | tail -2
grep -E "^FAILED" "$OUT/kv_tests.log" | head -20
echo "== decode_api_ab ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 scripts/decode_api_ab.py --rounds 5 --d 128,64 \
  --shapes 1:4096,1:32768,4:16384,8:4096,16:4096,32:1024,32:4096,64:2048,128:1024 --out "$OUT" 2>&1 | grep -v Warning
for tool in memcheck synccheck; do
  echo "== $tool, kvcache on the swap kernels ($(( $(date +%s) - t0 )) s)"
  timeout 150 compute-sanitizer --tool $tool --print-limit 3 python3 -m pytest -q -m gpu tests/test_varlen.py \
    -k "swap_kernels and bf16" -o cache_dir=build/pcb -p no:cacheprovider 2>&1 | grep -v "Host Frame" \
    | grep -E "ERROR SUMMARY|passed|failed|Error" | tail -4
done
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
