#!/bin/bash
# Session 54 call 4: the swapped-GEMM decode kernel (kernels/sm90_decode.py, experiment): float64 checks, bitwise
# repeats, graph-replay timing against the API and cuDNN over part counts and ring shapes (scripts/decode_swap_ab.py);
# memcheck / synccheck on one call.
#   bash scripts/session54_run4.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
cat > /tmp/one.py <<'PY'
import torch
from dhpfa.kernels import sm90_decode
g = torch.Generator(device="cuda").manual_seed(0)
q = torch.randn(2, 1, 32, 128, device="cuda", dtype=torch.bfloat16, generator=g)
k, v = (torch.randn(2, 3001, 8, 128, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(2))
o, l = sm90_decode.decode(q, k, v, parts=8)
torch.cuda.synchronize(); print("done", float(o.float().abs().sum()))
PY
for tool in memcheck synccheck; do
  echo "== $tool ($(( $(date +%s) - t0 )) s)"
  timeout 60 compute-sanitizer --tool $tool --print-limit 3 python3 /tmp/one.py 2>&1 | grep -v "Host Frame" | tail -3
done
echo "== decode_swap_ab ($(( $(date +%s) - t0 )) s)"
timeout 420 python3 scripts/decode_swap_ab.py --out "$OUT/ab" --rounds 7 2>&1 | grep -v "^$" | tail -40
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
