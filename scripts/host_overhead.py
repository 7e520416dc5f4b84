"""Host time per eager API call (the GPU is idle-fast for these shapes, so wall time per call is the
host's), and a cProfile of where it goes. Writes host_overhead.txt under --out.

    python3 scripts/host_overhead.py --out DIR
"""
import argparse
import cProfile
import io
import os
import pstats
import sys
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src"))
import dhpfa  # noqa: E402
from dhpfa import api  # noqa: E402
from dhpfa.kernels import dispatch  # noqa: E402


def per_call_us(fn, n=300):
    for _ in range(20):
        fn()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    host = (time.perf_counter() - t0) / n * 1e6
    torch.cuda.synchronize()
    return host


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    F = torch.nn.functional
    lines = []
    for shape in ((1, 8, 512, 64), (1, 8, 512, 128), (4, 16, 1024, 64), (1, 8, 512, 256)):
        q, k, v = (torch.randn(shape, device="cuda", dtype=torch.bfloat16) for _ in range(3))
        for causal in (False, True):
            ours = per_call_us(lambda: dhpfa.scaled_dot_product_attention(q, k, v, is_causal=causal))

            def no_plan():  # the checks and the choice on every call (the path before the API's call plans)
                api._PLANS.clear()
                return dhpfa.scaled_dot_product_attention(q, k, v, is_causal=causal)
            unplanned = per_call_us(no_plan)
            dispatch._FAST = False  # every call through Triton's JIT launch (the path before the cache)
            jit = per_call_us(lambda: dhpfa.scaled_dot_product_attention(q, k, v, is_causal=causal))
            dispatch._FAST = True
            sdpa = per_call_us(lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal))
            lines.append(f"{shape} causal={causal}: dhpfa {ours:.1f} us/call host (plan and cached launch), "
                         f"{unplanned:.1f} (no plan, cached launch), {jit:.1f} (JIT launch), torch SDPA {sdpa:.1f}")
            print(lines[-1], flush=True)
    q, k, v = (torch.randn((1, 8, 512, 128), device="cuda", dtype=torch.bfloat16) for _ in range(3))
    pr = cProfile.Profile()
    pr.enable()
    for _ in range(300):
        dhpfa.scaled_dot_product_attention(q, k, v, is_causal=True)
    pr.disable()
    torch.cuda.synchronize()
    s = io.StringIO()
    pstats.Stats(pr, stream=s).sort_stats("tottime").print_stats(25)
    with open(os.path.join(a.out, "host_overhead.txt"), "w") as f:
        f.write("\n".join(lines) + "\n\n" + s.getvalue())


if __name__ == "__main__":
    main()
