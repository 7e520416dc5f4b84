"""Session 48: the device duration of one launch of each decode-like split-KV build (for ncu: gpu__time_duration, the
launch's own span from the GPU's view), to set beside decode_stamps.py's in-kernel span and graph-replay time. Each
build launches --launches times after a warm-up, between torch.cuda.profiler.start() / stop().

    ncu --clock-control none --cache-control none --profile-from-start off --csv \
        --metrics gpu__time_duration.sum,sm__cycles_active.max,launch__grid_size,launch__cluster_dim_x \
        python3 scripts/decode_durations.py
"""
import argparse

import torch

from cluster_tree_ab import launch_fn
from decode_stamps import CASES


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--launches", type=int, default=3)
    args = ap.parse_args()
    for name, b, h, sq, sk, d in CASES:
        g = torch.Generator(device="cuda").manual_seed(2)
        q, k, v = (torch.randn(b, h, s, d, device="cuda", dtype=torch.bfloat16, generator=g) for s in (sq, sk, sk))
        fn = launch_fn(name)
        fn(q, k, v, False)
        torch.cuda.synchronize()
        torch.cuda.profiler.start()
        for _ in range(args.launches):
            fn(q, k, v, False)
        torch.cuda.synchronize()
        torch.cuda.profiler.stop()
        print(name, (b, h, sq, sk, d), flush=True)


if __name__ == "__main__":
    main()
