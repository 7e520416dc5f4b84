"""flash_attn_with_kvcache's key rows by one kernel (api.KVCACHE_BOUNDS_FUSED, triton_fwd.kvcache_bounds; session 34)
against the torch form (seven small operations), decode steps, both forms in each round in a fresh random order:
CUDA-graph replay (GPU time) and eager calls back to back (host time included); outputs bitwise equal.

    PYTHONPATH=src:scripts python3 scripts/kvcache_bounds_ab.py [--rounds 9] [--out DIR]
"""
import argparse
import json
import os
import random
import statistics

import torch

import dhpfa
from dhpfa import api
from dhpfa.measure.bench import graph_ms
from paged_hopper_ab import paged_copy


def eager_ms(fn, calls=50):
    fn()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(calls):
        fn()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) / calls


def ab_rounds(form, rounds):
    """Graph-replay and eager microseconds of form(False)() and form(True)(), each round in a fresh random order:
    (medians {False, True} graph, eager; median per-round ratios False / True graph, eager)."""
    gt, et = {False: [], True: []}, {False: [], True: []}
    for r in range(rounds):
        order = [False, True]
        random.Random(r).shuffle(order)
        for f in order:
            gt[f].append(graph_ms(form(f), [()], replays=20) * 1000)
            et[f].append(eager_ms(form(f)) * 1000)
    xg = statistics.median([t / f for t, f in zip(gt[False], gt[True])])
    xe = statistics.median([t / f for t, f in zip(et[False], et[True])])
    return ({f: statistics.median(v) for f, v in gt.items()}, {f: statistics.median(v) for f, v in et.items()}, xg,
            xe)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--out", default="out")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    gen = torch.Generator().manual_seed(34)
    g = torch.Generator(device="cuda").manual_seed(34)
    res = {"device": torch.cuda.get_device_name(), "rows": []}
    cases = [("B=1 D=128 2K cache", 1, 2048, 32, 8, 128, (-1, -1)), ("B=8 D=128 8K cache", 8, 8192, 32, 8, 128, (-1, -1)),
             ("B=8 D=128 8K window 4095", 8, 8192, 32, 8, 128, (4095, 0)), ("B=64 D=64 2K cache", 64, 2048, 32, 8, 64,
                                                                           (-1, -1))]
    print(f"{'case':<28} {'layout':<10} {'graph torch/fused us':>22} {'x':>6} {'eager torch/fused us':>22} {'x':>6}")
    for label, b, sc, h, hk, d, window in cases:
        kc, vc = (torch.randn(b, sc, hk, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(2))
        kp, vp, bt = paged_copy(kc, vc, 256, gen)
        q = torch.randn(b, 1, h, d, device="cuda", dtype=torch.bfloat16, generator=g)
        lens = torch.randint(1, sc, (b,), generator=gen).to("cuda", torch.int32)
        for layout in ("contiguous", "paged"):
            kw = dict(block_table=bt) if layout == "paged" else {}
            kk, vv = (kp, vp) if layout == "paged" else (kc, vc)
            plans = {False: {}, True: {}}

            def form(fused):
                def fn():
                    api.KVCACHE_BOUNDS_FUSED = fused
                    api._PLANS = plans[fused]
                    return dhpfa.flash_attn_with_kvcache(q, kk, vv, cache_seqlens=lens, causal=True,
                                                         window_size=window, **kw)
                return fn
            outs = {f: form(f)() for f in (False, True)}
            same = torch.equal(outs[False], outs[True])
            mg, me, xg, xe = ab_rounds(form, a.rounds)
            api.KVCACHE_BOUNDS_FUSED, api._PLANS = True, {}
            print(f"{label:<28} {layout:<10} {mg[False]:10.1f} / {mg[True]:8.1f}  x{xg:.3f} {me[False]:10.1f} / "
                  f"{me[True]:8.1f}  x{xe:.3f}  bitwise {same}", flush=True)
            res["rows"].append(dict(case=label, layout=layout, graph_us={"torch": mg[False], "fused": mg[True]},
                                    eager_us={"torch": me[False], "fused": me[True]}, x_graph=xg, x_eager=xe,
                                    bitwise=same))
    with open(os.path.join(a.out, "kvcache_bounds_ab.json"), "w") as f:
        json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
