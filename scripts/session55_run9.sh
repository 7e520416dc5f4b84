#!/bin/bash
# Session 55 call 9 (call 8 ran it on the first form, a compare-and-swap count): the merged decode kernel (sm90_decode.attn_decode_sm90_merged, variants.SWAP_DECODE_MERGE: the
# last program of a pair merges its parts, no combine launch): the decode GPU tests (the swapped-GEMM API test runs
# both forms), rule_check --set merge55 (the switch flipped), memcheck / synccheck over API calls with it on.
#   bash scripts/session55_run8.sh   (carry [".whl"]; writes under $OUT; about 4 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== decode tests ($(( $(date +%s) - t0 )) s)"
timeout 170 python3 -m pytest -q -m gpu -n 8 tests/test_sm90_decode.py tests/test_gpu.py -k "decode or repeated_calls" \
  -o cache_dir=build/pcb -rf > "$OUT/decode_tests.log" 2>&1
echo "rc $? ($(( $(date +%s) - t0 )) s)"; grep -E "passed|failed" "$OUT/decode_tests.log" | tail -2
grep -E "^FAILED" "$OUT/decode_tests.log" | head -20
echo "== rule_check merge55 ($(( $(date +%s) - t0 )) s)"
timeout 100 python3 scripts/rule_check.py --out "$OUT/rc" --set merge55 --rounds 7 2>&1 | grep -v "^$" | tail -18
for tool in memcheck synccheck; do
  echo "== $tool, API decode, merged ($(( $(date +%s) - t0 )) s)"
  timeout 60 compute-sanitizer --tool $tool --print-limit 3 python3 -c "
import torch, dhpfa
from dhpfa import api
from dhpfa.kernels import variants
variants.SWAP_DECODE_MERGE = True
g = torch.Generator(device='cuda').manual_seed(2)
for b, h, hk, sk, d in ((1, 32, 8, 16385, 128), (2, 32, 8, 4097, 64), (1, 28, 4, 40000, 64)):
    api._PLANS.clear()
    for i in range(3):
        q = torch.randn(b, 1, h, d, device='cuda', dtype=torch.bfloat16, generator=g)
        k, v = (torch.randn(b, sk, hk, d, device='cuda', dtype=torch.bfloat16, generator=g) for _ in range(2))
        o = dhpfa.flash_attn_func(q, k, v)
    (p,) = api._PLANS.values()
    print((b, h, hk, sk, d), p.variant.name, p.decode_parts, type(p.launcher).__name__)
torch.cuda.synchronize(); print('done')" 2>&1 | grep -v "Host Frame" | grep -v "^=========\s*$" | tail -5
done
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
