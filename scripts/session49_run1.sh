#!/bin/bash
# Session 49 call 1: what dispatch.SPLIT_KV_FULL_AS_CAUSAL (non-causal split-KV calls on their causal binary) costs:
# the API with the fold against the API without it on six split shapes (rule_check --set fold48); both forms' binaries
# compiled first in parallel (session 48's run 12, which compiled the non-causal ones only).
#   bash scripts/session49_run1.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
for c in "1,32,8,1,4096,128" "1,32,8,1,1024,128" "1,32,8,1,4096,64" "1,8,8,512,512,128" "1,8,8,512,512,64" \
         "4,32,1,1,8192,128"; do
  python3 -c "
import torch, dhpfa
from dhpfa.kernels import dispatch
b, h, hk, sq, sk, d = map(int, '$c'.split(','))
q = torch.randn(b, h, sq, d, device='cuda', dtype=torch.bfloat16)
k = torch.randn(b, hk, sk, d, device='cuda', dtype=torch.bfloat16)
for fold in (True, False):
    dispatch.SPLIT_KV_FULL_AS_CAUSAL = fold
    dhpfa.scaled_dot_product_attention(q, k, k, enable_gqa=h != hk); torch.cuda.synchronize()" &
done
wait
echo "compiled $(( $(date +%s) - t0 )) s"
timeout 150 python3 scripts/rule_check.py --out "$OUT" --rounds 11 --set fold48
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
