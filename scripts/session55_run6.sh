#!/bin/bash
# Session 55 call 6: evidence on the rule's new cell (D=64 with 4 pairs in 32 parts: the combine merges two groups of
# sixteen parts): memcheck / synccheck over API calls, counters over three rounds and dudect there.
#   bash scripts/session55_run6.sh   (carry [".whl"]; writes under $OUT; about 2 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
for tool in memcheck synccheck; do
  echo "== $tool, API decode (1,32,4,1,S,64) ($(( $(date +%s) - t0 )) s)"
  timeout 90 compute-sanitizer --tool $tool --print-limit 3 python3 -c "
import torch, dhpfa
from dhpfa import api
g = torch.Generator(device='cuda').manual_seed(1)
for b, h, hk, sk, d in ((1, 32, 4, 16385, 64), (1, 28, 4, 40000, 64)):
    api._PLANS.clear()
    for i in range(3):
        q = torch.randn(b, 1, h, d, device='cuda', dtype=torch.float16, generator=g)
        k, v = (torch.randn(b, sk, hk, d, device='cuda', dtype=torch.float16, generator=g) for _ in range(2))
        o = dhpfa.flash_attn_func(q, k, v)
    (p,) = api._PLANS.values()
    print((b, h, hk, sk, d), p.variant.name, p.decode_parts, type(p.launcher).__name__)
torch.cuda.synchronize(); print('done')" 2>&1 | grep -v "Host Frame" | grep -v "^=========\s*$" | tail -4
done
s=1,32,1,64,32768,4
echo "== counters --rounds 3 $s ($(( $(date +%s) - t0 )) s)"
timeout 120 python3 -m dhpfa counters --shape $s --rounds 3 --out "$OUT/counters_${s//,/_}" 2>&1 | tail -14
echo "== leak $s ($(( $(date +%s) - t0 )) s)"
timeout 45 python3 -m dhpfa leak --shape $s --samples 2000 --out "$OUT/leak_${s//,/_}" 2>&1 | tail -1
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
