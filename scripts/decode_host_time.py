"""Sessions 54-55: host time of an eager decode call through the API on the swapped-GEMM decode kernel against the
forward kernels' packed tiles (variants.SWAP_DECODE off), beside cuDNN: per call, the host's time to return (launches
are asynchronous) and the wall time of back-to-back calls (synchronised at the end), medians of rounds in which the
paths take turns. "swap" is the API's steady state (the plan's sm90_decode.Kept: both kept launchers, one workspace
allocation); "swap_first" clears the plan's launcher before each call, so every call takes sm90_decode.forward (the
kept launchers looked up by their metadata keys: session 55 call 1's path).

    PYTHONPATH=src python3 scripts/decode_host_time.py [--rounds N] [--cases "B,H,H_kv,S_k,D;..."] [--isolated]

Session 56: "combine" is the swap path with variants.SWAP_DECODE_MERGE off (the parts merged by the combine's second
launch; "swap" is then the merged kernel where SWAP_DECODE_MERGE_DIMS has the head dim); --isolated adds the wall time
of one call between synchronisations (as `dhpfa leak` times a sample: host and GPU).
"""
import argparse
import statistics
import time

import torch

import dhpfa
from dhpfa import api
from dhpfa.kernels import variants
from torch.nn.attention import SDPBackend, sdpa_kernel


def timed(fn, n=200):
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    h = 0.0
    for _ in range(n):
        a = time.perf_counter()
        fn()
        h += time.perf_counter() - a
    torch.cuda.synchronize()
    return h / n * 1e6, (time.perf_counter() - t0) / n * 1e6


def isolated(fn, n=100):
    ts = []
    for _ in range(n):
        torch.cuda.synchronize()
        a = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        ts.append(time.perf_counter() - a)
    return statistics.median(ts) * 1e6


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--cases", default="1,32,8,32768,128;2,32,8,4096,64;1,32,8,16384,128;4,32,8,16384,128")
    ap.add_argument("--isolated", action="store_true")
    a = ap.parse_args()
    for b, h, hk, sk, d in (tuple(int(x) for x in c.split(",")) for c in a.cases.split(";")):
        g = torch.Generator(device="cuda").manual_seed(0)
        q = torch.randn(b, 1, h, d, device="cuda", dtype=torch.bfloat16, generator=g)
        k, v = (torch.randn(b, sk, hk, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(2))
        qs, ks, vs = (t.transpose(1, 2) for t in (q, k, v))
        plans = {}
        for on in (True, False, "combine"):
            variants.SWAP_DECODE, variants.SWAP_DECODE_MERGE = bool(on), on is True
            api._PLANS.clear()
            for _ in range(5):
                dhpfa.flash_attn_func(q, k, v)
            (plans[on],) = api._PLANS.values()
        variants.SWAP_DECODE_MERGE = True

        def api_call(on, first=False):
            def fn():
                api._PLANS.clear()
                api._PLANS[sig] = plans[on]
            sig = api._signature("flash", q, k, v, False, None)

            def call():
                if first:
                    plans[on].launcher = None
                return dhpfa.flash_attn_func(q, k, v)
            return fn, call

        def cudnn():
            with sdpa_kernel([SDPBackend.CUDNN_ATTENTION]):
                return torch.nn.functional.scaled_dot_product_attention(qs, ks, vs, enable_gqa=True)
        paths = {"swap": api_call(True), "swap_first": api_call(True, True), "combine": api_call("combine"),
                 "forward": api_call(False), "cudnn": (lambda: None, cudnn)}
        rows = {n: [] for n in paths}
        for _ in range(a.rounds):
            for name, (setup, fn) in paths.items():
                setup()
                fn()
                rows[name].append(timed(fn) + ((isolated(fn),) if a.isolated else (0.0,)))
        med = {n: tuple(statistics.median(x[i] for x in r) for i in range(3)) for n, r in rows.items()}
        print((b, h, hk, 1, sk, d), "  ".join(f"{n}: host {x[0]:.1f} us, wall {x[1]:.1f} us" +
                                              (f", isolated {x[2]:.1f} us" if a.isolated else "")
                                              for n, x in med.items()),
              "| swap plan:", plans[True].variant.name, plans[True].decode_parts, type(plans[True].launcher).__name__,
              flush=True)
    variants.SWAP_DECODE = True


if __name__ == "__main__":
    main()
