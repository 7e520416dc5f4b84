"""dudect classes (dhpfa.measure.leak) on planned flash_attn_with_kvcache decode steps (session 35: kvcache_append
writes the new tokens, rotates them and q, and forms the key rows; then the varlen kernel): the secret q, cache and new
tokens come from each class's sample (the cache's rows and the new tokens are rows of one key / value buffer); lengths,
block table and rotary table public and fixed. Writes kvcache_leak.json and prints each case's table.

    PYTHONPATH=src:scripts python3 scripts/kvcache_leak.py --samples 1000 [--d 256] --out $OUT

--d D: contiguous and paged steps at that head dim instead of CASES (D=192 / 256: the grouped few-row tiles,
variants.VARLEN_GROUP_FEW, take these steps: 4 rows a sequence).
"""
import argparse
import json
import math
import os

import torch

B, SC, H, HK, PAGE = 8, 2048, 32, 8, 256
CASES = [(128, "contiguous", False), (128, "paged", False), (64, "contiguous", True)]  # (head dim, layout, rotary)


def step_fn(d, layout, rotary):
    """(fn(q, k, v) running one decode step on the buffers of dhpfa.measure.leak's shape, that shape): q (1, H, B, D);
    k, v (1, HK, B * SC + B, D), the cache's rows then the new tokens. Lengths, block table, rotary table fixed."""
    import dhpfa
    gen = torch.Generator().manual_seed(d)
    lens = torch.randint(100, SC - 2, (B,), generator=gen).to("cuda", torch.int32)
    kw = dict(causal=True)
    if layout == "paged":
        kw["block_table"] = torch.randperm(B * SC // PAGE, generator=gen).view(B, -1).to("cuda", torch.int32)
    if rotary:
        angle = torch.rand(SC, d // 2, generator=gen) * 2 * math.pi
        kw.update(rotary_cos=angle.cos().to("cuda", torch.bfloat16), rotary_sin=angle.sin().to("cuda", torch.bfloat16),
                  rotary_interleaved=False)

    def fn(q, k, v):  # q (1, H, B, D); k, v (1, HK, B * SC + B, D): the cache's rows, then the new tokens
        q = q.transpose(1, 2)[0].unsqueeze(1)  # (B, 1, H, D)
        rows = [t.transpose(1, 2)[0] for t in (k, v)]  # (B * SC + B, HK, D)
        new = [r[B * SC:].unsqueeze(1) for r in rows]  # (B, 1, HK, D)
        if layout == "paged":
            cache = [r[:B * SC].unflatten(0, (B * SC // PAGE, PAGE)) for r in rows]
        else:
            cache = [r[:B * SC].unflatten(0, (B, SC)) for r in rows]
        return dhpfa.flash_attn_with_kvcache(q, *cache, *new, cache_seqlens=lens, **kw)
    fn.lens = lens
    return fn, (1, H, B, d, B * SC + B, HK)


def case(d, layout, rotary, samples):
    from dhpfa import api
    from dhpfa.measure import leak
    fn, shape = step_fn(d, layout, rotary)
    api._PLANS.clear()
    res = leak.run_leak(fn, shape, samples=samples)
    res.update(d=d, layout=layout, rotary=rotary, lens=fn.lens.tolist(),
               planned=sum(isinstance(p, api._KvcachePlan) for p in api._PLANS.values()))
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--samples", type=int, default=1000)
    ap.add_argument("--d", type=int, default=0)
    ap.add_argument("--out", default="out")
    a = ap.parse_args()
    from dhpfa.measure import leak
    os.makedirs(a.out, exist_ok=True)
    out = []
    for d, layout, rotary in (CASES if not a.d else [(a.d, "contiguous", False), (a.d, "paged", False)]):
        res = case(d, layout, rotary, a.samples)
        out.append(res)
        print(f"dudect kvcache decode step D={d} {layout} rotary={rotary} (plans kept: {res['planned']}):")
        print(leak.format_table({"dhpfa": res}), flush=True)
    with open(os.path.join(a.out, f"kvcache_leak{f'_d{a.d}' if a.d else ''}.json"), "w") as fh:
        json.dump(out, fh, indent=1, default=str)


if __name__ == "__main__":
    main()
