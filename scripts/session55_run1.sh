#!/bin/bash
# Prepared in session 54 for the next session (not run): the swapped-GEMM decode kernel's kept launchers
# (sm90_decode.forward through dispatch._launch_kept) on a GPU for the first time. variants.SWAP_DECODE is off by
# default; the decode tests turn it on themselves (test_sm90_decode.py, test_gpu.py's swapped-GEMM test), and
# decode_host_time.py times an eager call with it on and off. If the tests pass and the swap path's host time is near
# the forward kernels' (session 54 call 10, JIT launches: 141-232 us against 46-68), set SWAP_DECODE = True and run
# the whole test_gpu.py and rule_check.py --set swap54 (it compares the switch flipped either way).
#   bash scripts/session55_run1.sh   (carry [".whl"]; writes under $OUT; about 3 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== decode tests, switch on inside them ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 -m pytest -q -m gpu -n 6 tests/test_sm90_decode.py tests/test_gpu.py -k "decode or repeated_calls" \
  -o cache_dir=build/pcb -rf > "$OUT/decode_tests.log" 2>&1
echo "rc $? ($(( $(date +%s) - t0 )) s)"; grep -E "passed|failed" "$OUT/decode_tests.log" | tail -2
grep -E "^FAILED" "$OUT/decode_tests.log" | head -20
echo "== eager host time ($(( $(date +%s) - t0 )) s)"
timeout 60 python3 scripts/decode_host_time.py 2>&1 | tail -4
for tool in memcheck synccheck; do
  echo "== $tool, API decode with the switch on ($(( $(date +%s) - t0 )) s)"
  timeout 90 compute-sanitizer --tool $tool --print-limit 3 python3 -c "
import torch, dhpfa
from dhpfa import api
from dhpfa.kernels import variants
variants.SWAP_DECODE = True
g = torch.Generator(device='cuda').manual_seed(0)
for b, h, hk, sk, d in ((1, 32, 8, 16385, 128), (2, 32, 8, 4097, 64)):
    q = torch.randn(b, 1, h, d, device='cuda', dtype=torch.bfloat16, generator=g)
    k, v = (torch.randn(b, sk, hk, d, device='cuda', dtype=torch.bfloat16, generator=g) for _ in range(2))
    api._PLANS.clear()
    for _ in range(3):
        o = dhpfa.flash_attn_func(q, k, v)
    (p,) = api._PLANS.values()
    print((b, h, hk, sk, d), p.variant.name, p.decode_parts, p.launcher)
torch.cuda.synchronize(); print('done')" 2>&1 | grep -v "Host Frame" | grep -v "^=========\s*$" | tail -4
done
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
