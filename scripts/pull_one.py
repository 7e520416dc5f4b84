"""Session 51: one API call of the one-exchange meeting (MQA, one tile of sixteen parts), for compute-sanitizer alone."""
import sys
import torch
import dhpfa
b, h, hk, sq, sk, d = (int(x) for x in (sys.argv[1:] or "1 32 1 1 2053 128".split()))
g = torch.Generator(device="cuda").manual_seed(0)
q = torch.randn(b, h, sq, d, device="cuda", dtype=torch.bfloat16, generator=g)
k, v = (torch.randn(b, hk, sk, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(2))
out = dhpfa.scaled_dot_product_attention(q, k, v, enable_gqa=hk != h)
torch.cuda.synchronize()
print("done", float(out.float().abs().sum()))
