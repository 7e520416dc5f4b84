"""A decode step with new tokens (and rotary embeddings), session 35's path (kvcache_append writes the new tokens,
rotates them and q, and forms the key rows in one launch; call plans) against session 34's (torch indexing writes and
torch rotary, every call checked): CUDA-graph replay (GPU time) and eager back-to-back calls (host time included), both
forms in each round in a fresh random order, outputs and caches bitwise equal.

    PYTHONPATH=src:scripts python3 scripts/kvcache_step_ab.py [--rounds 7] [--out DIR]
"""
import argparse
import json
import math
import os

import torch

import dhpfa
from dhpfa import api
from kvcache_bounds_ab import ab_rounds
from kvcache_host import paged


def set_form(new):
    api.KVCACHE_APPEND_FUSED = api.KVCACHE_ROTARY_FUSED = api.KVCACHE_PLANS = new


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--out", default="out")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    g = torch.Generator(device="cuda").manual_seed(35)
    dt = torch.bfloat16
    res = {"device": torch.cuda.get_device_name(), "rows": []}
    print(f"{'case':<40} {'graph old/new us':>18} {'x':>6} {'eager old/new us':>18} {'x':>6}")
    for label, b, sc, h, hk, d, layout, rot in (
            ("B=1 D=128 2K", 1, 2048, 32, 8, 128, "contiguous", None),
            ("B=1 D=128 2K rotary", 1, 2048, 32, 8, 128, "contiguous", False),
            ("B=8 D=128 8K", 8, 8192, 32, 8, 128, "contiguous", None),
            ("B=8 D=128 8K rotary", 8, 8192, 32, 8, 128, "contiguous", False),
            ("B=8 D=128 8K", 8, 8192, 32, 8, 128, "paged", None),
            ("B=8 D=128 8K rotary GPT-J", 8, 8192, 32, 8, 128, "paged", True),
            ("B=64 D=64 2K", 64, 2048, 32, 8, 64, "contiguous", None),
            ("B=64 D=64 2K rotary", 64, 2048, 32, 8, 64, "paged", False)):
        kc, vc = (torch.randn(b, sc, hk, d, device="cuda", dtype=dt, generator=g) for _ in range(2))
        q = torch.randn(b, 1, h, d, device="cuda", dtype=dt, generator=g)
        kn, vn = (torch.randn(b, 1, hk, d, device="cuda", dtype=dt, generator=g) for _ in range(2))
        lens = torch.randint(1, sc - 8, (b,), device="cuda", dtype=torch.int32, generator=g)
        kw = dict(causal=True)
        if layout == "paged":
            kc, vc, kw["block_table"] = paged(kc, vc, 256)
        if rot is not None:
            angle = torch.rand(sc, d // 2, device="cuda", generator=g) * 2 * math.pi
            kw.update(rotary_cos=angle.cos().to(dt), rotary_sin=angle.sin().to(dt), rotary_interleaved=rot)
        caches = {f: [kc.clone(), vc.clone()] for f in (False, True)}

        def form(new):
            def fn():
                set_form(new)
                return dhpfa.flash_attn_with_kvcache(q, *caches[new], kn, vn, cache_seqlens=lens, **kw)
            return fn
        outs = {f: form(f)() for f in (False, True)}
        same = torch.equal(outs[False], outs[True]) and all(torch.equal(x, y) for x, y in zip(*caches.values()))
        mg, me, xg, xe = ab_rounds(form, a.rounds)
        set_form(True)
        name = f"{label} {layout}"
        print(f"{name:<40} {mg[False]:8.1f} / {mg[True]:7.1f} x{xg:.2f} {me[False]:8.1f} / {me[True]:7.1f} x{xe:.2f}"
              f"  bitwise {same}", flush=True)
        res["rows"].append(dict(case=name, graph_us={"old": mg[False], "new": mg[True]}, eager_us={"old": me[False],
                                "new": me[True]}, x_graph=xg, x_eager=xe, bitwise=same))
    with open(os.path.join(a.out, "kvcache_step_ab.json"), "w") as f:
        json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
