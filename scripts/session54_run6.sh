#!/bin/bash
# Session 54 call 6: the swapped-GEMM decode kernel through the API (variants.swap_decode_parts): its GPU tests
# (tests/test_sm90_decode.py, test_gpu.py's swapped-GEMM test), memcheck / synccheck over API calls on it, and the
# whole test_gpu.py after a precompile.
#   bash scripts/session54_run6.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
cat > /tmp/api_decode.py <<'PY'
import torch, dhpfa
from dhpfa import api
g = torch.Generator(device="cuda").manual_seed(0)
for b, h, hk, sk, d in ((1, 32, 8, 16385, 128), (2, 32, 8, 4097, 64), (3, 40, 5, 16384, 128), (1, 16, 2, 20001, 64)):
    q = torch.randn(b, 1, h, d, device="cuda", dtype=torch.bfloat16, generator=g)
    k, v = (torch.randn(b, sk, hk, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(2))
    api._PLANS.clear()
    o = dhpfa.flash_attn_func(q, k, v)
    (p,) = api._PLANS.values()
    print((b, h, hk, sk, d), p.variant.name, p.decode_parts, flush=True)
torch.cuda.synchronize(); print("done")
PY
for tool in memcheck synccheck; do
  echo "== $tool api decode ($(( $(date +%s) - t0 )) s)"
  timeout 90 compute-sanitizer --tool $tool --print-limit 3 python3 /tmp/api_decode.py 2>&1 | grep -v "Host Frame" \
    | grep -v "^=========\s*$" | tail -6
done
echo "== test_sm90_decode + swapped test ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 -m pytest -q -m gpu -n 6 tests/test_sm90_decode.py tests/test_gpu.py -k "decode" \
  -o cache_dir=build/pcb -rf > "$OUT/decode_tests.log" 2>&1
echo "rc $? ($(( $(date +%s) - t0 )) s)"; grep -E "passed|failed" "$OUT/decode_tests.log" | tail -2
grep -E "^FAILED|Error" "$OUT/decode_tests.log" | head -20
echo "== precompile ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 scripts/precompile.py --jobs 16 2>&1 | tail -1
timeout 150 python3 -m pytest -q -m gpu -n 6 --dist loadgroup tests/test_gpu.py -o cache_dir=build/pcb -rf \
  > "$OUT/gpu_tests.log" 2>&1
echo "test_gpu rc $? ($(( $(date +%s) - t0 )) s)"; grep -E "passed|failed" "$OUT/gpu_tests.log" | tail -2
grep "^FAILED" "$OUT/gpu_tests.log" | head -20
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
