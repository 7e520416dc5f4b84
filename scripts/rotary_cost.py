"""Where a rotary decode step's extra GPU time goes (session 35): CUDA-graph replay of planned flash_attn_with_kvcache
steps (B=8, D=128, 8K caches, one new token) without rotary and with each rotary kind, contiguous and paged, and of
api._kvcache_append alone (with and without rotary). Prints us per step.

    PYTHONPATH=src:scripts python3 scripts/rotary_cost.py
"""
import math

import torch

import dhpfa
from dhpfa import api
from dhpfa.measure.bench import graph_ms
from kvcache_host import paged


def main():
    g = torch.Generator(device="cuda").manual_seed(35)
    dt = torch.bfloat16
    b, sc, h, hk, d = 8, 8192, 32, 8, 128
    kc0, vc0 = (torch.randn(b, sc, hk, d, device="cuda", dtype=dt, generator=g) for _ in range(2))
    q = torch.randn(b, 1, h, d, device="cuda", dtype=dt, generator=g)
    kn, vn = (torch.randn(b, 1, hk, d, device="cuda", dtype=dt, generator=g) for _ in range(2))
    lens = torch.randint(1, sc - 8, (b,), device="cuda", dtype=torch.int32, generator=g)
    angle = torch.rand(sc, d // 2, device="cuda", generator=g) * 2 * math.pi
    cos, sin = angle.cos().to(dt), angle.sin().to(dt)
    for layout in ("contiguous", "paged"):
        kc, vc = kc0.clone(), vc0.clone()
        kw = {}
        if layout == "paged":
            kc, vc, kw["block_table"] = paged(kc, vc, 256)
        rows = kc.numel() // (hk * d)
        kr, vr = kc.view(rows, hk, d), vc.view(rows, hk, d)
        for rot in (None, False, True):
            rk = {} if rot is None else dict(rotary_cos=cos, rotary_sin=sin, rotary_interleaved=rot)

            def step():
                return dhpfa.flash_attn_with_kvcache(q, kc, vc, kn, vn, cache_seqlens=lens, causal=True, **kw, **rk)
            step()
            step()
            t_step = min(graph_ms(step, [()], replays=50) for _ in range(5)) * 1000
            bt = kw.get("block_table")
            rotary = None if rot is None else (cos, sin, True, rot)

            def append():
                return api._kvcache_append(lens, None, None, kn, vn, kr, vr, bt, sc, 256 if bt is not None else 1,
                                           bt is not None, None, q, rotary)
            append()
            t_app = min(graph_ms(append, [()], replays=50) for _ in range(5)) * 1000
            name = {None: "no rotary", False: "rotary halves", True: "rotary GPT-J"}[rot]
            print(f"{layout:<11} {name:<14} step {t_step:7.1f} us   kvcache_append alone {t_app:6.1f} us", flush=True)


if __name__ == "__main__":
    main()
