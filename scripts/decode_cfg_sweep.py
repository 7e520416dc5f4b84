"""Tile configs of the portable varlen kernel's grouped decode builds (variants.VARLEN_GROUP[d], patched per round; the JIT
compiles each): decode steps through flash_attn_with_kvcache (one query per sequence, GQA 32 / 8 heads), contiguous
caches (attn_fwd_varlen_split_gqa at these shapes), CUDA-graph replay, every config in each of --rounds rounds in a
fresh random order; K/V TB/s, x over the shipped config, relative difference from its output.

    PYTHONPATH=src:scripts python3 scripts/decode_cfg_sweep.py --d 64 [--rounds 5] [--queries 1,4] [--out DIR]

--queries: queries per sequence (1: a decode step; more: speculative drafts, q_len rows x the group's 4 heads per
sequence, still the grouped tiles up to variants.VARLEN_GROUP_MAX_Q). The first config is the baseline of x.
"""
import argparse
import json
import os
import random
import statistics

import torch

import dhpfa
from dhpfa import api
from dhpfa.kernels import variants
from dhpfa.measure.bench import graph_ms

T = variants.TileConfig
CONFIGS = {"m64n64w4s3": T(64, 64, 4, 3), "m64n128w4s3": T(64, 128, 4, 3), "m64n128w4s2": T(64, 128, 4, 2),
           "m64n64w4s4": T(64, 64, 4, 4), "m64n128w8s3": T(64, 128, 8, 3), "m64n64w8s3": T(64, 64, 8, 3),
           "m64n32w4s4": T(64, 32, 4, 4), "m32n128w4s3": T(32, 128, 4, 3),
           # session 36, offline: 16-row tiles halve the grouped decode loop's instructions and registers
           "m16n64w4s3": T(16, 64, 4, 3), "m16n128w4s3": T(16, 128, 4, 3), "m16n64w4s4": T(16, 64, 4, 4),
           # session 37: D=256's shipped m64n32 and 16-row tiles with fewer warps
           "m64n32w4s3": T(64, 32, 4, 3), "m16n32w4s3": T(16, 32, 4, 3), "m16n64w2s3": T(16, 64, 2, 3),
           "m32n64w4s3": T(32, 64, 4, 3)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--d", type=int, default=64)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--configs", default=",".join(CONFIGS))
    ap.add_argument("--queries", default="1")
    ap.add_argument("--page", type=int, default=0, help="a paged cache in pages of this many rows (0: contiguous)")
    ap.add_argument("--heads", default="", help="query heads / key-value heads (default 32/8, at D > 128 16/8)")
    ap.add_argument("--shapes", default="8,16384;64,2048;8,4096")
    ap.add_argument("--out", default="out")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    g = torch.Generator(device="cuda").manual_seed(34)
    d, h, hk = a.d, 32 if a.d <= 128 else 16, 8
    if a.heads:
        h, hk = map(int, a.heads.split("/"))
    shipped = variants.VARLEN_GROUP[d]
    shipped_few = variants.VARLEN_GROUP_FEW.get(d)

    def patch(cfg):  # both grouped tables (the few-row one takes decode steps at D=192 / 256 since session 37)
        variants.VARLEN_GROUP[d] = cfg
        if shipped_few is not None:
            variants.VARLEN_GROUP_FEW[d] = cfg
    names = a.configs.split(",")
    res = {"device": torch.cuda.get_device_name(), "d": d, "heads": [h, hk], "shipped": str(shipped), "rows": []}
    cases = [(b, n, nq) for nq in map(int, a.queries.split(","))
             for b, n in (tuple(map(int, x.split(","))) for x in a.shapes.split(";"))]
    for b, n, nq in cases:
        kc, vc = (torch.randn(b, n, hk, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(2))
        q = torch.randn(b, nq, h, d, device="cuda", dtype=torch.bfloat16, generator=g)
        lens = torch.full((b,), n, dtype=torch.int32, device="cuda")
        nbytes = 2 * kc.numel() * kc.element_size()
        outs, plans, times = {}, {}, {nm: [] for nm in names}

        kw = {}
        if a.page:  # the same keys in pages, each sequence's pages in a shuffled order
            pages = b * n // a.page
            perm = torch.randperm(pages, device="cuda", generator=g)
            kc, vc = (t.reshape(pages, a.page, hk, d)[torch.argsort(perm)] for t in (kc, vc))
            kw = dict(block_table=perm.reshape(b, n // a.page).to(torch.int32))

        def fn():
            return dhpfa.flash_attn_with_kvcache(q, kc, vc, cache_seqlens=lens, causal=nq > 1, **kw)
        for nm in names:  # compile and check each first
            patch(CONFIGS[nm])
            api._PLANS.clear()
            outs[nm] = fn()
            plans[nm] = sorted({(p.variant.name, p.splits) for p in api._PLANS.values()
                                if isinstance(p, api._VarlenPlan) and p.variant is not None})
        for r in range(a.rounds):
            order = names[:]
            random.Random(r).shuffle(order)
            for nm in order:
                patch(CONFIGS[nm])
                api._PLANS.clear()
                times[nm].append(graph_ms(fn, [()], replays=20))
        variants.VARLEN_GROUP[d] = shipped
        if shipped_few is not None:
            variants.VARLEN_GROUP_FEW[d] = shipped_few
        api._PLANS.clear()
        base = names[0]
        for nm in names:
            x = statistics.median([t0 / t for t0, t in zip(times[base], times[nm])])
            us = statistics.median(times[nm]) * 1000
            diff = ((outs[nm].float() - outs[base].float()).norm() / outs[base].float().norm()).item()
            row = dict(b=b, keys=n, queries=nq, config=nm, us=us, tb_s=nbytes / us / 1e6, x=x, rel_diff=diff, plan=plans[nm])
            res["rows"].append(row)
            print(f"D={d} B={b} keys={n} q={nq} {nm:<12} {us:8.1f} us {nbytes / us / 1e6:5.2f} TB/s x{x:.3f} "
                  f"diff {diff:.1e} {plans[nm]}", flush=True)
        del kc, vc
    res["page"] = a.page
    tag = f"d{d}_h{h}_{hk}_q{a.queries.replace(',', '-')}" + (f"_page{a.page}" if a.page else "")
    with open(os.path.join(a.out, f"decode_cfg_sweep_{tag}.json"), "w") as f:
        json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
