"""The sanitizer child's cluster cases alone (dhpfa.measure.sanitize: 24 programs on 64-key blocks, 40 programs on
128-key blocks; D = 64 / 128, causal and not, through the API; session 45: 72 programs with 1,061 keys, the two-CTA
clusters two an SM at D = 64, split keys in one program at D = 128), for a device run after a change to the cluster
builds only (session 44), without the whole child's precompile; session 47: the 4 / 8 / 16-part splits whose pairs of
parts are clusters (CL_TREE); session 51: the one-exchange meetings (CL_PULL).

    compute-sanitizer --tool memcheck --kernel-name kns=attn_fwd python3 scripts/sanitize_clusters.py
"""
import torch

import dhpfa
from dhpfa.kernels import variants

g = torch.Generator(device="cuda").manual_seed(0)
for b, sq, sk in ((1, 333, variants.FEW_PROGRAMS_CLUSTER_SEQ + 77), (1, 600, variants.FEW_PROGRAMS_SPLIT_KV_SEQ + 476),
                  (1, 1100, variants.FEW_PROGRAMS_SPLIT_KV_SEQ + 37)):
    for d in (64, 128):
        for causal in (False, True):
            q = torch.randn(b, sq, 4, d, device="cuda", dtype=torch.bfloat16, generator=g)
            k, v = (torch.randn(b, sk, 2, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(2))
            dhpfa.flash_attn_func(q, k, v, causal=causal)
from sanitize_clusters_cases import CASES  # noqa: E402
for i, (b, h, hk, sq, sk, d, causal) in enumerate(CASES):
    print("case", i, (b, h, hk, sq, sk, d, causal), flush=True)
    q = torch.randn(b, sq, h, d, device="cuda", dtype=torch.bfloat16, generator=g)
    k, v = (torch.randn(b, sk, hk, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(2))
    dhpfa.flash_attn_func(q, k, v, causal=causal)
torch.cuda.synchronize()
print("child done")
