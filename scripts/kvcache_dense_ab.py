"""flash_attn_with_kvcache with equal caches (cache_seqlens an int) at decode-like query counts: the varlen route
(variants.KVCACHE_DENSE_MAX_Q = None: bounds or append, attention, combine launches) against the dense route
(flash_attn_func on the cache's first rows: variants.kvcache_dense), CUDA-graph replay, interleaved rounds
(decode_cases.interleaved_graph_ms); us per call, x = varlen / dense, each route's relative error against float64 on
the first sequence. With --append, each call also writes one new token per sequence (k, v) at position lens - 1.

    PYTHONPATH=src:scripts python3 scripts/kvcache_dense_ab.py [--rounds 5] [--d 64,128,256] [--out DIR]
"""
import argparse
import json
import os
import statistics

import torch

import dhpfa
from dhpfa import api
from dhpfa.kernels import variants
from dhpfa.reference import attention_ref
from decode_cases import heads, interleaved_graph_ms

# (batch, cache length, int cache_seqlens as an offset from it, queries per sequence, query heads / kv heads or None)
CASES = ((1, 4096, 0, 1, None), (1, 32768, 0, 1, None), (8, 4096, 0, 1, None), (8, 16384, -1000, 1, None),
         (32, 4096, 0, 1, None), (64, 2048, -7, 1, None), (8, 4096, 0, 4, None), (32, 2048, 0, 4, None),
         (8, 4096, 0, 1, "mha"), (32, 2048, 0, 1, "mha"))
ROUTES = {"varlen": None, "dense": 64}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--d", default="64,128,256")
    ap.add_argument("--append", action="store_true")
    ap.add_argument("--eager", action="store_true", help="eager decode loops instead: 48 steps appending one token each "
                    "(cache_seqlens an int growing by one a step), and 48 repeats of one call (a fixed int), per route")
    ap.add_argument("--queries", default="", help="instead of CASES: B=8 x 4096 and B=32 x 2048 at these query counts")
    ap.add_argument("--out", default="out")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    g = torch.Generator(device="cuda").manual_seed(37)
    res = {"device": torch.cuda.get_device_name(), "append": a.append, "rows": []}
    saved = variants.KVCACHE_DENSE_MAX_Q
    if a.eager:
        return eager(a, g, res)
    for d in (int(x) for x in a.d.split(",")):
        cases = CASES if not a.queries else [(b, n, 0, int(sq), None) for sq in a.queries.split(",")
                                             for b, n in ((8, 4096), (32, 2048))]
        for b, n, off, sq, kind in cases:
            h, hk = heads(d)
            if kind == "mha":
                hk = h
            kc, vc = (torch.randn(b, n, hk, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(2))
            q = torch.randn(b, sq, h, d, device="cuda", dtype=torch.bfloat16, generator=g)
            lens = n + off
            causal = sq > 1
            if a.append:
                kn, vn = (torch.randn(b, 1, hk, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(2))
                lens -= 1

                def fn():
                    return dhpfa.flash_attn_with_kvcache(q, kc, vc, kn, vn, cache_seqlens=lens, causal=causal)
                keys = lens + 1
            else:
                def fn():
                    return dhpfa.flash_attn_with_kvcache(q, kc, vc, cache_seqlens=lens, causal=causal)
                keys = lens

            def setup(route):
                variants.KVCACHE_DENSE_MAX_Q = ROUTES[route]
                api._PLANS.clear()
            errs = {}
            for route in ROUTES:
                setup(route)
                out = fn()
                torch.cuda.synchronize()
                ref = attention_ref(q[:1], kc[:1, :keys], vc[:1, :keys], d ** -0.5,
                                    causal_offset=keys - sq if causal else None)[0][0]
                errs[route] = ((out[0].double().cpu() - ref).norm() / ref.norm()).item()
            times = interleaved_graph_ms(list(ROUTES), setup, fn, a.rounds)
            variants.KVCACHE_DENSE_MAX_Q = saved
            us = {r: statistics.median(t) * 1000 for r, t in times.items()}
            x = statistics.median(v / dn for v, dn in zip(times["varlen"], times["dense"]))
            nbytes = 2 * b * keys * hk * d * 2
            row = dict(d=d, b=b, keys=keys, queries=sq, heads=(h, hk), us=us, x=x, errors=errs,
                       tb_s={r: nbytes / t / 1e6 for r, t in us.items()})
            res["rows"].append(row)
            print(f"D={d} B={b} keys={keys} q={sq} heads={h}/{hk} varlen {us['varlen']:.1f} us dense "
                  f"{us['dense']:.1f} us x{x:.3f} err {errs['varlen']:.1e} / {errs['dense']:.1e}", flush=True)
            del kc, vc
    tag = ("_append" if a.append else "") + (f"_q{a.queries.replace(',', '-')}" if a.queries else "")
    with open(os.path.join(a.out, f"kvcache_dense_ab{tag}.json"), "w") as f:
        json.dump(res, f, indent=1)


def eager(a, g, res, steps=48):
    """Eager host-and-GPU time per call of each route: a decode loop (one new token a step, the int cache_seqlens
    growing, so every step is a new signature) and one repeated call (a fixed int), interleaved rounds, median."""
    import random
    saved = variants.KVCACHE_DENSE_MAX_Q
    for d in (int(x) for x in a.d.split(",")):
        for b, n in ((1, 4096), (8, 4096), (32, 2048)):
            h, hk = heads(d)
            kc, vc = (torch.randn(b, n, hk, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(2))
            q = torch.randn(b, 1, h, d, device="cuda", dtype=torch.bfloat16, generator=g)
            kn, vn = (torch.randn(b, 1, hk, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(2))
            l0 = n - steps - 1

            def loop():
                for i in range(steps):
                    dhpfa.flash_attn_with_kvcache(q, kc, vc, kn, vn, cache_seqlens=l0 + i, causal=True)

            def repeat():
                for _ in range(steps):
                    dhpfa.flash_attn_with_kvcache(q, kc, vc, cache_seqlens=l0, causal=True)
            times = {(r, m): [] for r in ROUTES for m in ("loop", "repeat")}
            for rnd in range(a.rounds + 1):
                order = list(times)
                random.Random(rnd).shuffle(order)
                for route, mode in order:
                    variants.KVCACHE_DENSE_MAX_Q = ROUTES[route]
                    api._PLANS.clear()
                    fn = loop if mode == "loop" else repeat
                    fn()  # compiles; then the loop starts without plans, as a real decode loop meets every length
                    # once, and the repeated call with its plan kept
                    if mode == "loop":
                        api._PLANS.clear()
                    torch.cuda.synchronize()
                    e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                    e0.record()
                    fn()
                    e1.record()
                    torch.cuda.synchronize()
                    if rnd:  # round 0 warms up
                        times[(route, mode)].append(e0.elapsed_time(e1) * 1000 / steps)
            variants.KVCACHE_DENSE_MAX_Q = saved
            us = {f"{r}/{m}": statistics.median(t) for (r, m), t in times.items()}
            res["rows"].append(dict(d=d, b=b, keys=n, eager_us=us))
            print(f"D={d} B={b} keys={n} eager us per call: " + "  ".join(f"{k} {v:.1f}" for k, v in us.items()),
                  flush=True)
            del kc, vc
    with open(os.path.join(a.out, "kvcache_dense_ab_eager.json"), "w") as f:
        json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
