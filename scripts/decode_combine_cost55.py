"""Session 55: what the combine's second launch costs the swapped-GEMM decode path (the bound on what merging the parts
inside attn_decode_sm90 could save): the plan's kept pair (sm90_decode.Kept) against its first launcher alone (the
attention kernel, writing the workspace) and its second alone (the combine), each as CUDA graphs of many calls replayed
in interleaved rounds (medians, us a call).

    PYTHONPATH=src python3 scripts/decode_combine_cost55.py [--rounds 7]
"""
import argparse
import statistics

import torch

import dhpfa
from dhpfa import api

CASES = [(2, 32, 8, 4096, 64), (1, 32, 4, 16384, 64), (1, 32, 8, 16384, 64), (1, 32, 8, 16384, 128),
         (1, 32, 4, 32768, 128), (1, 32, 8, 65536, 128)]


def graph_us(fn, n=40, reps=5):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        fn()
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(n):
            fn()
    g.replay()
    torch.cuda.synchronize()
    out = []
    for _ in range(reps):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        g.replay()
        b.record()
        torch.cuda.synchronize()
        out.append(a.elapsed_time(b) / n * 1000)
    return statistics.median(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    a = ap.parse_args()
    gen = torch.Generator(device="cuda").manual_seed(3)
    for b, h, hk, sk, d in CASES:
        q = torch.randn(b, 1, h, d, device="cuda", dtype=torch.bfloat16, generator=gen)
        k, v = (torch.randn(b, sk, hk, d, device="cuda", dtype=torch.bfloat16, generator=gen) for _ in range(2))
        api._PLANS.clear()
        for _ in range(2):
            dhpfa.flash_attn_func(q, k, v)
        (plan,) = api._PLANS.values()
        kept = plan.launcher
        out = torch.empty_like(q)
        lse_t = torch.empty(h, b, device="cuda")
        cu = api._dense_offsets(q.device, b, 1)
        ws = torch.zeros(kept.size, device="cuda")
        base, ws_l = ws.data_ptr(), ws.data_ptr() + 4 * kept.l_offset
        idx = q.device.index
        fns = {"both": lambda: kept(q, k, v, out, lse_t, cu, idx),
               "attn": lambda: kept.first((q, k, v, base, ws_l), 1.0, idx),
               "combine": lambda: kept.second((base, ws_l, out.data_ptr(), lse_t.data_ptr(), cu), 1.0, idx)}
        rows = {n: [] for n in fns}
        for _ in range(a.rounds):
            for n, fn in fns.items():
                rows[n].append(graph_us(fn))
        print((b, h, hk, 1, sk, d), plan.decode_parts, "parts:",
              "  ".join(f"{n} {statistics.median(r):.2f}" for n, r in rows.items()), flush=True)


if __name__ == "__main__":
    main()
