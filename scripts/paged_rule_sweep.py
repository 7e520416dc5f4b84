"""Where the Hopper varlen kernel starts to beat the portable one, paged and contiguous (session 33): prefill chunks of
flash_attn_with_kvcache (causal and not) against caches of random per-sequence lengths, in pages of 256 (random order)
and contiguous, each through the API with the Hopper rule forced on (every max_seqlen_q) and off
(variants.VARLEN_SM90_MIN_Q None), CUDA-graph replay, interleaved rounds. Prints x = portable / Hopper per chunk size
(above 1: Hopper faster) and the rule's current choice (paged / contiguous; session 33's numbers were taken under
the rule before, VARLEN_SM90_MIN_Q alone).

    PYTHONPATH=src:scripts python3 scripts/paged_rule_sweep.py [--rounds 7] [--out DIR]
"""
import argparse
import json
import os
import statistics

import torch

import dhpfa
from dhpfa import api
from dhpfa.kernels import variants
from dhpfa.measure.bench import graph_ms
from paged_hopper_ab import kernels_of_plans, paged_copy


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--chunks", default="64,128,256,384,512,768,1024")
    ap.add_argument("--fresh", action="store_true",
                    help="every sequence's cache holds just the chunk (cache_seqlens = chunk: a prompt's first chunk, "
                         "the keys no longer than the queries), in a cache of 4,096 rows")
    ap.add_argument("--keys-per-query", type=int, default=0,
                    help="every sequence's cache holds this many times the chunk's length (the chunk included)")
    ap.add_argument("--dims", default="128,256", help="of 96, 128, 192, 256")
    ap.add_argument("--softcap", type=float, default=0.0, help="soft-capped calls (contiguous caches only)")
    ap.add_argument("--window", type=int, default=-1, help="a local window's left side (contiguous caches only)")
    ap.add_argument("--out", default="out")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    gen = torch.Generator().manual_seed(33)
    g = torch.Generator(device="cuda").manual_seed(33)
    saved = variants.VARLEN_SM90_MIN_Q
    forced = {key: 1 for key in saved}
    res = {"device": torch.cuda.get_device_name(), "rows": []}
    page, b, sc = 256, 8, 4096
    print("case, then per layout: Hopper ms / portable ms / x (portable / Hopper), the rule's choice (paged / contiguous)")
    dims = [int(x) for x in a.dims.split(",")]
    for d, h, hk in ((dd, hh, kk) for dd, hh, kk in ((96, 32, 8), (128, 32, 8), (192, 16, 2), (256, 16, 2))
                      if dd in dims):
        kc, vc = (torch.randn(b, sc, hk, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(2))
        kp, vp, bt = paged_copy(kc, vc, page, gen)
        for causal in (True, False):
            for s_new in (int(x) for x in a.chunks.split(",")):
                lens = (torch.full((b,), s_new) if a.fresh else torch.full((b,), a.keys_per_query * s_new)
                        if a.keys_per_query else torch.randint(s_new, sc, (b,), generator=gen)) \
                    .to("cuda", torch.int32)
                q = torch.randn(b, s_new, h, d, device="cuda", dtype=torch.bfloat16, generator=g)
                win = (a.window, -1) if a.window >= 0 else (-1, -1)
                calls = {"contiguous": lambda: dhpfa.flash_attn_with_kvcache(q, kc, vc, cache_seqlens=lens,
                                                                              causal=causal, softcap=a.softcap,
                                                                              window_size=win)}
                if not a.softcap and a.window < 0:
                    calls["paged"] = lambda: dhpfa.flash_attn_with_kvcache(q, kp, vp, cache_seqlens=lens,
                                                                           block_table=bt, causal=causal)
                names = [(layout, rule) for layout in calls for rule in ("hopper", "portable")]
                times = {n: [] for n in names}
                kern, outs = {}, {}
                for _ in range(a.rounds):
                    for layout, rule in names:
                        variants.VARLEN_SM90_MIN_Q = forced if rule == "hopper" else None
                        api._PLANS.clear()
                        fn = calls[layout]
                        outs[layout, rule] = fn()
                        kern[layout, rule] = kernels_of_plans()
                        times[layout, rule].append(graph_ms(lambda: fn(), [()], replays=10))
                variants.VARLEN_SM90_MIN_Q = saved
                med = {n: statistics.median(t) for n, t in times.items()}
                err = max(((outs[l, "hopper"].float() - outs[l, "portable"].float()).norm()
                           / outs[l, "portable"].float().norm()).item() for l in calls)
                reach = a.window + 1 if a.window >= 0 and causal else None  # (left, -1): right 0 when causal
                rule_now = (variants.varlen_sm90(d, s_new, causal, sc, paged=True, local=a.window >= 0,
                                                 window_keys=reach),
                            variants.varlen_sm90(d, s_new, causal, sc, local=a.window >= 0, window_keys=reach))
                row = dict(d=d, causal=causal, chunk=s_new, h=h, hk=hk, page=page, lens=lens.tolist(),
                           ms={f"{l} {r}": m for (l, r), m in med.items()},
                           kernels={f"{l} {r}": k for (l, r), k in kern.items()}, rel_diff=err, rule_hopper=rule_now)
                res["rows"].append(row)
                xs = {l: med[l, "portable"] / med[l, "hopper"] for l in calls}
                cols = " ".join(f"{l}: {med[l, 'hopper']:.3f} / {med[l, 'portable']:.3f} / x{xs[l]:.2f}"
                                for l in ("paged", "contiguous") if l in calls)
                print(f"D={d} {'causal' if causal else 'full  '} chunk={s_new:<5} H={h}/{hk} {cols}  rule "
                      f"{'/'.join('hopper' if r else 'portable' for r in rule_now)} diff={err:.1e} "
                      f"{kern['contiguous', 'hopper']}", flush=True)
    with open(os.path.join(a.out, f"paged_rule_sweep{'_fresh' if a.fresh else ''}"
                           f"{f'_x{a.keys_per_query}' if a.keys_per_query else ''}{f'_cap{a.softcap:g}' if a.softcap else ''}"
                           f"{f'_w{a.window}' if a.window >= 0 else ''}_d{a.dims.replace(',', '-')}.json"), "w") as f:
        json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
