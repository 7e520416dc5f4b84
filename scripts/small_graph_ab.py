"""Session 43: issue 5's small-shape measure (dhpfa bench --parts small: a CUDA graph of ONE call, replayed between
two events, so each replay pays a graph launch) for several builds in the same rounds, in random order: the API's
call (now the cluster build at (1,8,512,64)), the one-program 64x128 tiles it ran before (x1), and others.

    PYTHONPATH=src:scripts python3 scripts/small_graph_ab.py [--rounds 9] [--out DIR] [--configs x1,cl2_n64@head,...]
"""
import argparse
import importlib
import json
import os
import random
import statistics

import torch

from cluster_ab import CONFIGS
from dhpfa.measure import bench
from sm90_check import gluon_fn


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--out", default="out")
    ap.add_argument("--configs", default="x1,cl2_n64,kv2")
    ap.add_argument("--shapes", default="1:8:512:64,1:8:512:128",
                    help="B:H:S:D[:S_k] (512 queries; keys S_k, default S), comma-separated")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    peers = bench.peer_kernels()
    res = {}
    for spec in args.shapes.split(","):
        shape = tuple(int(x) for x in spec.split(":"))
        b, h, s, d = shape[:4]
        sk = shape[4] if len(shape) > 4 else s
        g = torch.Generator(device="cuda").manual_seed(s + d)
        q = torch.randn(b, h, s, d, device="cuda", dtype=torch.bfloat16, generator=g)
        k, v = (torch.randn(b, h, sk, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(2))
        kernels = {"api": peers["dhpfa"], "sdpa_cudnn": peers["sdpa_cudnn"]}
        for n in args.configs.split(","):  # "name@mod": the build from kernels/_ab_<mod>.py (session 44)
            name, _, mod = n.partition("@")
            if n == "api_prev":  # the API under the rule before session 45
                import cluster_tree_ab
                kernels[n] = cluster_tree_ab.api_prev_fn()
            elif name in CONFIGS:
                kernels[n] = gluon_fn(CONFIGS[name], importlib.import_module(f"dhpfa.kernels._ab_{mod}").launch
                                      if mod else None)
            else:  # scripts/cluster_tree_ab.py's configurations and module variants
                import cluster_tree_ab
                kernels[n] = gluon_fn(cluster_tree_ab.CONFIGS[name], cluster_tree_ab.module(n).launch)
        times = {n: [] for n in kernels}
        rng = random.Random(0)
        for _ in range(args.rounds):
            names = list(kernels)
            rng.shuffle(names)
            for n in names:
                times[n].append(bench.graph_ms(lambda *a, n=n: kernels[n](*a, False), [(q, k, v)], replays=200) * 1000)
        med = {n: statistics.median(t) for n, t in times.items()}
        res[str(shape)] = dict(us=med, rounds=times)
        print(f"{shape} graphs of one call: " + "  ".join(f"{n}={u:.2f}us" for n, u in med.items()), flush=True)
    with open(os.path.join(args.out, "small_graph_ab.json"), "w") as f:
        json.dump(dict(device=torch.cuda.get_device_name(), results=res), f, indent=1)


if __name__ == "__main__":
    main()
