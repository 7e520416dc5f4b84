"""Host time of eager flash_attn_with_kvcache / flash_attn_varlen_func calls (decode steps): per call, the host's
time (perf_counter over back-to-back calls) and the wall time with the GPU's (synchronised at the end), whether the
call plan kept a fast launcher, and a cProfile of each case (top entries by own time). Writes kvcache_host.json and
kvcache_host_prof.txt under --out.

    PYTHONPATH=src:scripts python3 scripts/kvcache_host.py [--calls 300] [--out DIR]
"""
import argparse
import cProfile
import io
import json
import os
import pstats
import time

import torch

import dhpfa
from dhpfa import api


def per_call_us(fn, n):
    for _ in range(10):
        fn()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    host = time.perf_counter() - t0
    torch.cuda.synchronize()
    wall = time.perf_counter() - t0
    return host / n * 1e6, wall / n * 1e6


def paged(kc, vc, page):
    b, sc, hk, d = kc.shape
    n = b * sc // page
    perm = torch.randperm(n, generator=torch.Generator().manual_seed(1)).to(kc.device)
    kp, vp = (torch.empty(n, page, hk, d, device=kc.device, dtype=kc.dtype) for _ in range(2))
    bt = perm.view(b, sc // page).to(torch.int32)
    kp[perm] = kc.reshape(n, page, hk, d)
    vp[perm] = vc.reshape(n, page, hk, d)
    return kp, vp, bt


def cases():
    g = torch.Generator(device="cuda").manual_seed(35)
    dt = torch.bfloat16
    out = []
    for label, b, sc, h, hk, d, window, new, layout in (
            ("B=1 D=128 2K, no new", 1, 2048, 32, 8, 128, (-1, -1), 0, "contiguous"),
            ("B=1 D=128 2K, 1 new", 1, 2048, 32, 8, 128, (-1, -1), 1, "contiguous"),
            ("B=1 D=128 2K, 1 new", 1, 2048, 32, 8, 128, (-1, -1), 1, "paged"),
            ("B=8 D=128 8K w4095, 1 new", 8, 8192, 32, 8, 128, (4095, 0), 1, "contiguous"),
            ("B=64 D=64 2K, 1 new", 64, 2048, 32, 8, 64, (-1, -1), 1, "contiguous"),
            ("B=64 D=64 2K, 1 new", 64, 2048, 32, 8, 64, (-1, -1), 1, "paged")):
        kc, vc = (torch.randn(b, sc, hk, d, device="cuda", dtype=dt, generator=g) for _ in range(2))
        q = torch.randn(b, 1, h, d, device="cuda", dtype=dt, generator=g)
        kn, vn = (torch.randn(b, new, hk, d, device="cuda", dtype=dt, generator=g) for _ in range(2))
        lens = torch.randint(1, sc - 8, (b,), device="cuda", dtype=torch.int32, generator=g)
        kw = {}
        if layout == "paged":
            kc, vc, kw["block_table"] = paged(kc, vc, 256)
        if new:
            kw.update(k=kn, v=vn)

        def fn(q=q, kc=kc, vc=vc, lens=lens, window=window, kw=kw):
            return dhpfa.flash_attn_with_kvcache(q, kc, vc, cache_seqlens=lens, causal=True, window_size=window, **kw)
        out.append((f"kvcache {label} {layout}", fn))
    # flash_attn_varlen_func decode steps (B sequences of one query against contiguous keys)
    b, sk, h, hk, d = 8, 2048, 32, 8, 128
    q = torch.randn(b, h, d, device="cuda", dtype=dt, generator=g)
    k, v = (torch.randn(b * sk, hk, d, device="cuda", dtype=dt, generator=g) for _ in range(2))
    cu_q = torch.arange(b + 1, device="cuda", dtype=torch.int32)
    cu_k = torch.arange(0, (b + 1) * sk, sk, device="cuda", dtype=torch.int32)
    out.append(("varlen decode B=8 D=128 2K", lambda: dhpfa.flash_attn_varlen_func(q, k, v, cu_q, cu_k, 1, sk,
                                                                                     causal=True)))
    q4, k4, v4 = (torch.randn(1, 512, 8, 64, device="cuda", dtype=dt, generator=g) for _ in range(3))
    out.append(("flash_attn_func (1,512,8,64)", lambda: dhpfa.flash_attn_func(q4, k4, v4)))
    qs, ks, vs = (t.transpose(1, 2) for t in (q4, k4, v4))
    out.append(("torch SDPA (1,8,512,64)", lambda: torch.nn.functional.scaled_dot_product_attention(qs, ks, vs)))
    return out


def plan_kinds():
    kinds = []
    for plan in api._PLANS.values():
        launcher = getattr(plan, "launcher", None)
        kinds.append(type(launcher).__name__)
    return sorted(set(kinds))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=300)
    ap.add_argument("--out", default="out")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    if os.environ.get("DHPFA_APPEND_TORCH"):  # the new tokens written by torch indexing (before session 35)
        api.KVCACHE_APPEND_FUSED = False
    if os.environ.get("DHPFA_NO_KV_PLANS"):  # every call takes the checks (before session 35)
        api.KVCACHE_PLANS = False
    res = {"append_fused": getattr(api, "KVCACHE_APPEND_FUSED", None), "plans": getattr(api, "KVCACHE_PLANS", None),
           "src": dhpfa.__file__, "device": torch.cuda.get_device_name(), "rows": []}
    prof = []
    for label, fn in cases():
        api._PLANS.clear()
        fn()
        fn()
        host, wall = per_call_us(fn, a.calls)
        pr = cProfile.Profile()
        pr.enable()
        for _ in range(100):
            fn()
        pr.disable()
        torch.cuda.synchronize()
        s = io.StringIO()
        pstats.Stats(pr, stream=s).sort_stats("tottime").print_stats(18)
        prof.append(f"==== {label}: host {host:.1f} us, wall {wall:.1f} us per call\n" + s.getvalue())
        kinds = plan_kinds()
        print(f"{label:<44} host {host:7.1f} us  wall {wall:7.1f} us  launchers {kinds}", flush=True)
        res["rows"].append(dict(case=label, host_us=host, wall_us=wall, launchers=kinds))
    with open(os.path.join(a.out, "kvcache_host.json"), "w") as f:
        json.dump(res, f, indent=1)
    with open(os.path.join(a.out, "kvcache_host_prof.txt"), "w") as f:
        f.write("\n".join(prof))


if __name__ == "__main__":
    main()
