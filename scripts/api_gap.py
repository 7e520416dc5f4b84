"""Why the API reads slower than its variant launched directly in graph replay (session 12's open item: (1,8,512,128)
8.55 us through the API against 8.19 direct). One interleaved graph-replay run per shape of: the API (SDPA layout: it
allocates out (B, H, S, D) and the LSE per call), the API's variant launched directly into one reused output buffer
(as scripts/small_tiles.variant_fn times it), the same with a fresh output and LSE per call, and into one reused
(B, H, S, D) output through its transposed view (the API's output layout).

    PYTHONPATH=src:scripts python3 scripts/api_gap.py --out DIR [--shapes 1,8,512,512,64;...] (B,H,Sq,Sk,D)
"""
import argparse
import json
import os
import statistics

import torch

import dhpfa
from dhpfa import api
from dhpfa.kernels import dispatch
from dhpfa.measure import bench
from dhpfa.measure.bench import interleaved_ms


def direct(variant, b, h, sq, d, fresh=False, bhsd=False):
    """fn(q, k, v, causal) on (B, H, S, D) inputs launching `variant` (non-causal)."""
    def buffers():
        out = torch.empty((b, h, sq, d) if bhsd else (b, sq, h, d), device="cuda", dtype=torch.bfloat16)
        return (out.transpose(1, 2) if bhsd else out), torch.empty((b, h, sq), device="cuda", dtype=torch.float32)
    fixed = buffers()

    def fn(q, k, v, causal):
        out, lse = buffers() if fresh else fixed
        dispatch.launch(variant, q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), out, lse, d ** -0.5, False, 0)
        return out
    return fn


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out")
    ap.add_argument("--shapes", default="1,8,512,512,64;1,8,512,512,128;1,16,512,1024,128")
    ap.add_argument("--rounds", type=int, default=15)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    res = []
    for spec in args.shapes.split(";"):
        b, h, sq, sk, d = (int(x) for x in spec.split(","))
        sets = bench.make_inputs(bench.Case(b, h, sq, d, False), 4, seed=sk, seq_k=sk)
        api._PLANS.clear()
        dhpfa.scaled_dot_product_attention(*sets[0])
        (plan,) = api._PLANS.values()
        kernels = {"api": lambda q, k, v, causal: dhpfa.scaled_dot_product_attention(q, k, v),
                   "direct": direct(plan.variant, b, h, sq, d),
                   "direct_fresh_out": direct(plan.variant, b, h, sq, d, fresh=True),
                   "direct_bhsd_out": direct(plan.variant, b, h, sq, d, bhsd=True)}
        times = interleaved_ms(kernels, sets, False, rounds=args.rounds, batch_ms=5.0, graph=True)
        us = {n: statistics.median(t) * 1000 for n, t in times.items()}
        res.append(dict(shape=[b, h, sq, sk, d], variant=plan.variant.name, us=us))
        print(f"{spec} {plan.variant.name}: " + "  ".join(f"{n}={u:.2f}" for n, u in us.items()), flush=True)
    with open(os.path.join(args.out, "api_gap.json"), "w") as f:
        json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
