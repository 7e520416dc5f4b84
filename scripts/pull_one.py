"""Session 51: one call of the one-exchange meeting for compute-sanitizer alone. With no config: through the API (MQA,
one tile of sixteen parts; the API runs the exchange only where sm90_fwd.CL_PULL_DEFAULT is on). With a config of
cluster_tree_ab.py (e.g. x16p, x16p@s52a): that build launched directly on (B, H, H_kv, S_q, S_k, D).

    compute-sanitizer --tool memcheck python3 scripts/pull_one.py [CONFIG [B H HKV SQ SK D]]
"""
import sys
import torch
import dhpfa
name = sys.argv[1] if len(sys.argv) > 1 else ""
b, h, hk, sq, sk, d = (int(x) for x in (sys.argv[2:] or "1 32 1 1 2053 128".split()))
g = torch.Generator(device="cuda").manual_seed(0)
q = torch.randn(b, h, sq, d, device="cuda", dtype=torch.bfloat16, generator=g)
k, v = (torch.randn(b, hk, sk, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(2))
if name:
    from cluster_tree_ab import launch_fn
    out = launch_fn(name)(q, k, v, False)
else:
    out = dhpfa.scaled_dot_product_attention(q, k, v, enable_gqa=hk != h)
torch.cuda.synchronize()
print("done", name or "api", float(out.float().abs().sum()))
