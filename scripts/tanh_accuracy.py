"""The soft-capping Hopper varlen builds' error against float64 (their tanh: MUFU.TANH) and the portable kernel's (the
exponential-and-reciprocal form), on the same calls (session 31; its run 5 also had the Hopper builds with the
exponential form, an option of the kernel then, at 4f9d9ac).

    PYTHONPATH=src python3 scripts/tanh_accuracy.py

Per (head dim, window, cap, query spread): the largest relative error of a sequence's output (norm of the difference
over the norm of the reference, as tests/test_varlen.py's rel_err) and the largest absolute LSE error, over the
sequences of one packed call.
"""
import json
import math
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src"))
import dhpfa  # noqa: E402
from dhpfa import api  # noqa: E402
from dhpfa.kernels import variants  # noqa: E402
from dhpfa.reference import attention_ref  # noqa: E402


def errors(lens, d, causal, window, cap, spread, seed=0):
    g = torch.Generator().manual_seed(seed)
    h, hk = 4, 2
    total = sum(lens)
    q = (torch.randn(total, h, d, generator=g) * spread).to("cuda", torch.bfloat16)
    k, v = (torch.randn(total, hk, d, generator=g).to("cuda", torch.bfloat16) for _ in range(2))
    cu = torch.tensor([0] + [sum(lens[:i + 1]) for i in range(len(lens))], dtype=torch.int32, device="cuda")
    api._PLANS.clear()
    out, lse = dhpfa.flash_attn_varlen_func(q, k, v, cu, cu, max(lens), max(lens), causal=causal, window_size=window,
                                            softcap=cap, return_lse=True)
    kernel = [p.variant.kernel for p in api._PLANS.values() if isinstance(p, api._VarlenPlan)]
    worst_o, worst_l = 0.0, 0.0
    c = cu.tolist()
    for b in range(len(lens)):
        sl = slice(c[b], c[b + 1])
        ref, ref_lse = attention_ref(q[None, sl], k[None, sl], v[None, sl], 1 / math.sqrt(d), 0 if causal else None,
                                     window if window != (-1, -1) else None, cap)
        o = out[None, sl].double().cpu()
        worst_o = max(worst_o, float((o - ref).norm() / ref.norm()))
        fin = torch.isfinite(ref_lse[0])
        worst_l = max(worst_l, float((lse[:, sl].double().cpu()[fin] - ref_lse[0][fin]).abs().max()))
    return kernel, worst_o, worst_l


def main():
    lens = [129, 700, 1, 300, 1000, 65, 2000]
    rows = []
    for d in (128, 256):
        for window, causal in (((-1, -1), False), ((300, 0), True)):
            for cap in (30.0, 50.0):
                for spread in (1.0, 3.0):
                    row = {"d": d, "window": window, "causal": causal, "cap": cap, "spread": spread}
                    for name, hopper in (("portable", False), ("hopper", True)):
                        variants.VARLEN_SM90_MIN_Q = {(x, c): (1 if hopper else None) for x in variants.VARLEN_SM90
                                                      for c in (False, True)}
                        kernel, eo, el = errors(lens, d, causal, window, cap, spread)
                        row[name] = {"kernel": kernel, "rel_err": eo, "lse_err": el}
                    rows.append(row)
                    print(d, window, cap, spread, {n: (f"{row[n]['rel_err']:.2e}", f"{row[n]['lse_err']:.2e}")
                                                   for n in ("portable", "hopper")},
                          row["hopper"]["kernel"], flush=True)
    out = os.environ.get("OUT", "out")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "tanh_accuracy.json"), "w") as fh:
        json.dump(rows, fh, indent=1)


if __name__ == "__main__":
    main()
