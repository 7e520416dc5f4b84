"""Session 51 call 5: the sanitizer's cluster cases one by one through the API (CUDA_LAUNCH_BLOCKING), each against
float64 (rule_check.reference), with the variant the API ran; stops at the first launch failure."""
import sys
import torch
import dhpfa
from dhpfa import api
sys.path.insert(0, "scripts")
from rule_check import reference
from sanitize_clusters_cases import CASES

g = torch.Generator(device="cuda").manual_seed(0)
for i, (b, h, hk, sq, sk, d, causal) in enumerate(CASES):
    q = torch.randn(b, h, sq, d, device="cuda", dtype=torch.bfloat16, generator=g)
    k, v = (torch.randn(b, hk, sk, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(2))
    api._PLANS.clear()
    out = dhpfa.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=hk != h)
    torch.cuda.synchronize()
    names = sorted({p.variant.name.split("-")[-1] for p in api._PLANS.values() if p.variant is not None})
    ref = reference(q, k, v, causal)
    err = ((out.double() - ref).norm() / ref.norm()).item()
    print(i, (b, h, hk, sq, sk, d, causal), names, f"{err:.2e}", "OK" if err < 1e-2 else "BAD", flush=True)
