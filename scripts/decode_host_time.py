"""Session 54: host time of an eager decode call through the API on the swapped-GEMM decode kernel against the forward
kernels' packed tiles (variants.SWAP_DECODE off), beside cuDNN: per call, the host's time to return (launches are
asynchronous) and the wall time of back-to-back calls (synchronised at the end), medians of rounds.

    PYTHONPATH=src python3 scripts/decode_host_time.py
"""
import statistics
import time

import torch

import dhpfa
from dhpfa import api
from dhpfa.kernels import variants
from torch.nn.attention import SDPBackend, sdpa_kernel


def timed(fn, n=200, rounds=5):
    host, wall = [], []
    for _ in range(rounds):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        h = 0.0
        for _ in range(n):
            a = time.perf_counter()
            fn()
            h += time.perf_counter() - a
        torch.cuda.synchronize()
        wall.append((time.perf_counter() - t0) / n * 1e6)
        host.append(h / n * 1e6)
    return statistics.median(host), statistics.median(wall)


for b, h, hk, sk, d in ((1, 32, 8, 32768, 128), (2, 32, 8, 4096, 64), (1, 32, 8, 16384, 128)):
    g = torch.Generator(device="cuda").manual_seed(0)
    q = torch.randn(b, 1, h, d, device="cuda", dtype=torch.bfloat16, generator=g)
    k, v = (torch.randn(b, sk, hk, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(2))
    row = {}
    for name, on in (("swap", True), ("forward", False)):
        variants.SWAP_DECODE = on
        api._PLANS.clear()
        for _ in range(5):
            dhpfa.flash_attn_func(q, k, v)
        row[name] = timed(lambda: dhpfa.flash_attn_func(q, k, v))
    variants.SWAP_DECODE = True
    qs, ks, vs = (t.transpose(1, 2) for t in (q, k, v))

    def cudnn():
        with sdpa_kernel([SDPBackend.CUDNN_ATTENTION]):
            return torch.nn.functional.scaled_dot_product_attention(qs, ks, vs, enable_gqa=True)
    row["cudnn"] = timed(cudnn)
    print((b, h, hk, 1, sk, d), "  ".join(f"{n}: host {x[0]:.1f} us, wall {x[1]:.1f} us" for n, x in row.items()),
          flush=True)
