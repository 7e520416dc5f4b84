"""Paged caches with a window or soft-cap (session 33: api._gather_pages copies the listed pages into contiguous rows,
then the unpaged builds run) against the same keys in a contiguous cache, flash_attn_with_kvcache decode steps and
prefill chunks, CUDA-graph replay, interleaved rounds; outputs compared (bitwise and relative difference).

    PYTHONPATH=src:scripts python3 scripts/paged_gather_bench.py [--rounds 7] [--old-rule] [--out DIR]

--old-rule: also the contiguous call under session 33's rule (VARLEN_SM90_LONG_WINDOW out of reach), in the same rounds.
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
from paged_hopper_ab import paged_copy

LONG_WINDOW = variants.VARLEN_SM90_LONG_WINDOW


_RULE_PLANS = {False: {}, True: {}}


def _under_rule(f, old):
    """f under the shipped Hopper varlen rule, or (old) with VARLEN_SM90_LONG_WINDOW out of reach (session 33's rule),
    each with plans of its own (the plan's key does not hold the rule)."""
    def run():
        variants.VARLEN_SM90_LONG_WINDOW = 10 ** 9 if old else LONG_WINDOW
        api._PLANS = _RULE_PLANS[old]
        return f()
    return run


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--out", default="out")
    ap.add_argument("--old-rule", action="store_true", help="also the contiguous call under session 33's rule")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    gen = torch.Generator().manual_seed(34)
    g = torch.Generator(device="cuda").manual_seed(34)
    res = {"device": torch.cuda.get_device_name(), "rows": []}
    cases = [  # (label, B, cache, H, H_kv, D, queries, window, softcap)
        ("mistral decode", 8, 8192, 32, 8, 128, 1, (4095, 0), 0.0),
        ("mistral chunk 512", 8, 8192, 32, 8, 128, 512, (4095, 0), 0.0),
        ("gemma2 decode", 8, 8192, 16, 8, 256, 1, (4095, 0), 50.0),
        ("gemma2 chunk 512", 8, 8192, 16, 8, 256, 512, (4095, 0), 50.0),
        ("softcap decode d128", 8, 8192, 32, 8, 128, 1, (-1, -1), 30.0)]
    print(f"{'case':<24} {'paged (gather) us':>18} {'contiguous us':>14}  x  bitwise  diff")
    for label, b, sc, h, hk, d, sq, window, cap in cases:
        kc, vc = (torch.randn(b, sc, hk, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(2))
        kp, vp, bt = paged_copy(kc, vc, 256, gen)
        lens = torch.randint(sq, sc, (b,), generator=gen).to("cuda", torch.int32)
        q = torch.randn(b, sq, h, d, device="cuda", dtype=torch.bfloat16, generator=g)
        calls = {"paged": lambda: dhpfa.flash_attn_with_kvcache(q, kp, vp, cache_seqlens=lens, block_table=bt,
                                                                 causal=True, window_size=window, softcap=cap),
                 "contiguous": lambda: dhpfa.flash_attn_with_kvcache(q, kc, vc, cache_seqlens=lens, causal=True,
                                                                      window_size=window, softcap=cap)}
        if a.old_rule:  # the contiguous call under session 33's rule (windowed calls kept VARLEN_SM90_MIN_Q)
            calls["contiguous, session 33 rule"] = calls["contiguous"]
        calls = {n: _under_rule(f, n.endswith("session 33 rule")) for n, f in calls.items()}
        outs = {n: f() for n, f in calls.items()}
        times = {n: [] for n in calls}
        for _ in range(a.rounds):
            for n, f in calls.items():
                times[n].append(graph_ms(lambda: f(), [()], replays=10) * 1e3)
        med = {n: statistics.median(t) for n, t in times.items()}
        same = torch.equal(outs["paged"], outs["contiguous"])
        diff = ((outs["paged"].float() - outs["contiguous"].float()).norm() / outs["contiguous"].float().norm()).item()
        res["rows"].append(dict(case=label, b=b, cache=sc, h=h, hk=hk, d=d, queries=sq, window=list(window),
                                softcap=cap, us=med, bitwise=same, rel_diff=diff))
        old = f"  session 33 rule {med['contiguous, session 33 rule']:.1f}" if a.old_rule else ""
        print(f"{label:<24} {med['paged']:>18.1f} {med['contiguous']:>14.1f}  x{med['paged'] / med['contiguous']:.2f}"
              f"  {same}  {diff:.1e}{old}", flush=True)
    with open(os.path.join(a.out, "paged_gather_bench.json"), "w") as f:
        json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
