"""Session 61: where the stream decode kernel's fixed cost goes. Calls 6-8 (decode_stream61.py) read it about 3 us
behind the one-part merged kernel at full waves ((32,32,4,1,1024,128): 24.97 against 21.25 us), moving the merges past
the range and batching the arrival changing nothing. attn_decode_sm90_stream with STAMP: thread 0 of each program writes
(%clock64, %globaltimer) at its start (0), its first block landed (1), past its last block (2), past the releases and
the SC fence (3) and at its end (4), and the pairs it merged (5); beside it attn_decode_sm90_merged at one part with
its stamps (0 start, 1 past its part's store, 2 past the arrival, 3 past its merge, 4 end). Eager launches after
warm-up; medians over launches of (medians or maxima over programs).

    PYTHONPATH=src:scripts python3 scripts/decode_stream_stamps61.py [--launches 30] [--out DIR] [--cases "B,H,Hkv,Sk,D;..."]
"""
import argparse
import json
import os
import statistics

import torch

from dhpfa.kernels import dispatch, sm90_decode

CASES = [(32, 32, 4, 1024, 128), (34, 32, 4, 1024, 128), (32, 32, 4, 16384, 128), (32, 32, 4, 1024, 64)]


def med(xs):
    return statistics.median(xs)


def stream_case(b, h, hk, sk, d, n_prog, launches, gen):
    q = torch.randn(b, 1, h, d, device="cuda", dtype=torch.bfloat16, generator=gen)
    k, v = (torch.randn(b, sk, hk, d, device="cuda", dtype=torch.bfloat16, generator=gen) for _ in range(2))
    n = 4
    ws_o, ws_l = torch.empty(n, b, h, d, device="cuda"), torch.empty(n, h, b, device="cuda")
    out, lse_t = torch.empty_like(q), torch.empty(h, b, device="cuda")
    flags = torch.zeros(b * hk * n, dtype=torch.int64, device="cuda")
    stamps = torch.zeros(n_prog * 16, dtype=torch.int64, device="cuda")
    grid, args, kw = sm90_decode.stream_launch_args(q, k, v, ws_o, ws_l, out, lse_t, flags, d ** -0.5, n_prog,
                                                    tail=False)  # (session 61's first form: stamps 3-5)
    rows = []
    for i in range(launches + 5):
        stamps.zero_()
        flags.zero_()
        sm90_decode.attn_decode_sm90_stream[grid](*args, **kw, STAMP=True, STAMPS=stamps)
        torch.cuda.synchronize()
        if i < 5:
            continue
        s = stamps.view(n_prog, 8, 2).cpu()
        c, g = s[:, :, 0], s[:, :, 1]
        t0 = int(g[:, 0].min())
        p = range(n_prog)
        rows.append({"span_ns": int(g[:, 4].max()) - t0, "last_start_ns": int(g[:, 0].max()) - t0,
                     "first_block_cyc": med(int(c[x, 1] - c[x, 0]) for x in p),
                     "main_cyc": med(int(c[x, 2] - c[x, 1]) for x in p),
                     "main_cyc_max": max(int(c[x, 2] - c[x, 1]) for x in p),
                     "last_main_end_ns": int(g[:, 2].max()) - t0,
                     "release_fence_cyc": med(int(c[x, 3] - c[x, 2]) for x in p),
                     "arrive_merge_cyc": med(int(c[x, 4] - c[x, 3]) for x in p),
                     "arrive_merge_cyc_max": max(int(c[x, 4] - c[x, 3]) for x in p),
                     "merged_pairs": int(s[:, 5, 0].sum())})
    return {key: med([r[key] for r in rows]) for key in rows[0]}


def merged_case(b, h, hk, sk, d, launches, gen):
    q = torch.randn(b, 1, h, d, device="cuda", dtype=torch.bfloat16, generator=gen)
    k, v = (torch.randn(b, sk, hk, d, device="cuda", dtype=torch.bfloat16, generator=gen) for _ in range(2))
    ws_o, ws_l = torch.empty(1, b, h, d, device="cuda"), torch.empty(1, h, b, device="cuda")
    out, lse_t = torch.empty_like(q), torch.empty(h, b, device="cuda")
    flags = torch.zeros(b * hk, dtype=torch.int64, device="cuda")
    progs = b * hk
    stamps = torch.zeros(progs * 16, dtype=torch.int64, device="cuda")
    grid, args, kw = sm90_decode.launch_args(q, k, v, ws_o, ws_l, d ** -0.5, 1, merge=(out, lse_t, flags))
    rows = []
    for i in range(launches + 5):
        stamps.zero_()
        flags.zero_()
        sm90_decode.attn_decode_sm90_merged[grid](*args, **kw, STAMP=True, STAMPS=stamps)
        torch.cuda.synchronize()
        if i < 5:
            continue
        s = stamps.view(progs, 8, 2).cpu()
        c, g = s[:, :, 0], s[:, :, 1]
        t0 = int(g[:, 0].min())
        p = range(progs)
        rows.append({"span_ns": int(g[:, 4].max()) - t0, "last_start_ns": int(g[:, 0].max()) - t0,
                     "main_store_cyc": med(int(c[x, 1] - c[x, 0]) for x in p),
                     "main_store_cyc_max": max(int(c[x, 1] - c[x, 0]) for x in p),
                     "last_store_ns": int(g[:, 1].max()) - t0,
                     "arrive_merge_cyc": med(int(c[x, 4] - c[x, 1]) for x in p)})
    return {key: med([r[key] for r in rows]) for key in rows[0]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--launches", type=int, default=30)
    ap.add_argument("--out", default=os.environ.get("OUT", "out"))
    ap.add_argument("--cases", default="", help="B,H,H_kv,S_k,D;... (session 65; default CASES)")
    a = ap.parse_args()
    cases = [tuple(int(x) for x in c.split(",")) for c in a.cases.split(";")] if a.cases else CASES
    gen = torch.Generator(device="cuda").manual_seed(61)
    sms = dispatch.sm_count(torch.device("cuda"))
    res = {}
    for b, h, hk, sk, d in cases:
        n_prog = (2 if d == 64 else 1) * sms
        st = stream_case(b, h, hk, sk, d, n_prog, a.launches, gen)
        print((b, h, hk, 1, sk, d), f"stream {n_prog}", "  ".join(f"{k_} {v_:.0f}" for k_, v_ in st.items()),
              flush=True)
        mg = merged_case(b, h, hk, sk, d, a.launches, gen)
        print((b, h, hk, 1, sk, d), "merged 1 part", "  ".join(f"{k_} {v_:.0f}" for k_, v_ in mg.items()), flush=True)
        res[str((b, h, hk, sk, d))] = {"stream": st, "merged1": mg}
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "decode_stream_stamps61.json"), "w") as f:
        json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
