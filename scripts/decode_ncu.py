"""One decode step through flash_attn_with_kvcache (GQA 32 / 8, contiguous caches, B sequences of N keys) between
torch.cuda.profiler.start() / stop(), for an ncu section report of the portable kernel's grouped split build and its
combine (session 34: D=64 decode at 79-81% of a read-only reduction's bandwidth, D=128 at 88%).

    ncu --clock-control none --profile-from-start off --section SpeedOfLight --section Occupancy \
        --section LaunchStats python3 scripts/decode_ncu.py --d 64 --b 64 --n 2048
"""
import argparse

import torch

import dhpfa


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--d", type=int, default=64)
    ap.add_argument("--b", type=int, default=64)
    ap.add_argument("--n", type=int, default=2048)
    ap.add_argument("--api", choices=("kvcache", "func"), default="kvcache",
                    help="func: the same step through flash_attn_func on the full caches (the dense route)")
    a = ap.parse_args()
    g = torch.Generator(device="cuda").manual_seed(34)
    kc, vc = (torch.randn(a.b, a.n, 8, a.d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(2))
    q = torch.randn(a.b, 1, 32, a.d, device="cuda", dtype=torch.bfloat16, generator=g)
    lens = torch.full((a.b,), a.n, dtype=torch.int32, device="cuda")

    def step():
        if a.api == "func":
            return dhpfa.flash_attn_func(q, kc, vc)
        return dhpfa.flash_attn_with_kvcache(q, kc, vc, cache_seqlens=lens)
    for _ in range(3):
        step()
    torch.cuda.synchronize()
    torch.cuda.profiler.start()
    step()
    torch.cuda.synchronize()
    torch.cuda.profiler.stop()


if __name__ == "__main__":
    main()
