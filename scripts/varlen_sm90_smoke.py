"""One mixed-length varlen call per Hopper varlen build (variants.VARLEN_SM90) against the portable varlen kernel on the
same inputs, and the plan's kernel: a first check on a fresh device before the tests (session 30).

    PYTHONPATH=src python3 scripts/varlen_sm90_smoke.py
"""
import torch

import dhpfa
from dhpfa import api
from dhpfa.kernels import dispatch, variants

g = torch.Generator(device="cuda").manual_seed(0)
lens = [129, 1, 63, 300, 0, 64, 65, 127, 200]
cu = torch.tensor([0] + [sum(lens[:i + 1]) for i in range(len(lens))], dtype=torch.int32, device="cuda")
bad = 0
for d in sorted(variants.VARLEN_SM90):
    for causal in (False, True):
        api._PLANS.clear()
        q = torch.randn(sum(lens), 8, d, device="cuda", dtype=torch.bfloat16, generator=g)
        k, v = (torch.randn(sum(lens), 2, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(2))
        out = dhpfa.flash_attn_varlen_func(q, k, v, cu, cu, 300, 300, causal=causal)
        kernels = [p.variant.kernel for p in api._PLANS.values() if isinstance(p, api._VarlenPlan)]
        ref = torch.empty_like(q)
        dispatch.launch_varlen(variants.varlen_variant(q.dtype, d, causal), q, k, v, ref,
                               torch.empty(8, q.shape[0], device="cuda"), cu, cu, 300, d ** -0.5)
        torch.cuda.synchronize()
        err = float((out.float() - ref.float()).norm() / ref.float().norm())
        ok = err < 1e-2 and not out.isnan().any() and kernels == [variants.VARLEN_SM90_KERNEL]
        bad += not ok
        print(f"D={d} causal={causal}: {kernels} rel diff vs portable {err:.2e} {'OK' if ok else 'BAD'}", flush=True)
raise SystemExit(1 if bad else 0)
