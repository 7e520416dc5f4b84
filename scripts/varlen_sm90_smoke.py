"""One mixed-length varlen call per Hopper varlen build (variants.VARLEN_SM90) against the portable varlen kernel on the
same inputs, and the plan's kernel: a first check on a fresh device before the tests (session 30).

    PYTHONPATH=src python3 scripts/varlen_sm90_smoke.py [--dims 64,96,...] [--pad ROWS] [--repeat N]

--pad: q, k, v and every output the API allocates are views with ROWS rows of their own buffer before and after them
(--where front / back: only before or after them; --what inputs / outputs: only q, k, v or only the outputs).
"""
import argparse

import torch

import dhpfa
from dhpfa import api
from dhpfa.kernels import dispatch, variants

ap = argparse.ArgumentParser()
ap.add_argument("--dims", default=",".join(str(d) for d in sorted(variants.VARLEN_SM90)))
ap.add_argument("--pad", type=int, default=0)
ap.add_argument("--repeat", type=int, default=1)
ap.add_argument("--where", default="both", choices=("both", "front", "back"))
ap.add_argument("--what", default="all", choices=("all", "inputs", "outputs"))
a = ap.parse_args()
# the kernel, not the rule (which has its own test)
variants.VARLEN_SM90_MIN_Q = {(d, c): 1 for d in variants.VARLEN_SM90 for c in (False, True)}
front = a.pad if a.where in ("both", "front") else 0
back = a.pad if a.where in ("both", "back") else 0
if a.pad and a.what != "inputs":
    def padded_empty(shape, dtype, device):
        if len(shape) == 2:  # lse (H, total): pad along the rows of each head
            buf = torch.empty((shape[0], shape[1] + front + back), dtype=dtype, device=device)
            return buf[:, front:front + shape[1]]
        buf = torch.empty((shape[0] + front + back,) + tuple(shape[1:]), dtype=dtype, device=device)
        return buf[front:front + shape[0]]
    api._empty = padded_empty


def rows(n, h, d, g):
    f, b = (front, back) if a.what != "outputs" else (0, 0)
    buf = torch.randn(n + f + b, h, d, device="cuda", dtype=torch.bfloat16, generator=g)
    return buf[f:f + n]


g = torch.Generator(device="cuda").manual_seed(0)
lens = [129, 1, 63, 300, 0, 64, 65, 127, 200]
cu = torch.tensor([0] + [sum(lens[:i + 1]) for i in range(len(lens))], dtype=torch.int32, device="cuda")
bad = 0
for _ in range(a.repeat):
    for d in (int(x) for x in a.dims.split(",")):
        for causal in (False, True):
            api._PLANS.clear()
            q, k, v = rows(sum(lens), 8, d, g), rows(sum(lens), 2, d, g), rows(sum(lens), 2, d, g)
            out = dhpfa.flash_attn_varlen_func(q, k, v, cu, cu, 300, 300, causal=causal)
            torch.cuda.synchronize()
            kernels = [p.variant.kernel for p in api._PLANS.values() if isinstance(p, api._VarlenPlan)]
            ref = torch.empty_like(q)
            dispatch.launch_varlen(variants.varlen_variant(q.dtype, d, causal), q, k, v, ref,
                                   torch.empty(8, q.shape[0], device="cuda"), cu, cu, 300, d ** -0.5)
            torch.cuda.synchronize()
            err = float((out.float() - ref.float()).norm() / ref.float().norm())
            ok = err < 1e-2 and not out.isnan().any() and kernels == [variants.VARLEN_SM90_KERNEL]
            bad += not ok
            print(f"D={d} causal={causal}: {kernels} rel diff vs portable {err:.2e} {'OK' if ok else 'BAD'}",
                  flush=True)
raise SystemExit(1 if bad else 0)
