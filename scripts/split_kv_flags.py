"""What zeroing the split-key flags costs (device run): the SPLIT_KV build in CUDA-graph replay with its flags
(a) allocated per call and left as they were (torch.empty: the kernel reads whatever was there, expecting it not to
equal the magic), (b) allocated per call and zeroed (torch.zeros: one memset node per replay), (c) allocated once,
zeroed once and reset by the kernel itself. Interleaved rounds, as bench.interleaved_ms.

    PYTHONPATH=src:scripts python3 scripts/split_kv_flags.py --out DIR
"""
import argparse
import json
import os
import statistics

import torch

from dhpfa.kernels import sm90_fwd
from dhpfa.measure import bench
from dhpfa.measure.bench import interleaved_ms

TILES = dict(block_m=64, block_n=128, stages=2, warp_specialized=True, split_kv=2)


def build(shape, seq_k, flags_mode):
    b, h, s, d = shape
    out = torch.empty((b, s, h, d), device="cuda", dtype=torch.bfloat16)
    lse = torch.empty((b, h, s), device="cuda", dtype=torch.float32)
    ws_once, flags_once = sm90_fwd.split_kv_workspace(out, 64)
    flags_once.zero_()

    def fn(q, k, v, causal):
        ws = torch.empty_like(ws_once)
        if flags_mode == "empty":
            flags = torch.empty_like(flags_once)
        elif flags_mode == "zeros":
            flags = torch.zeros_like(flags_once)
        else:
            ws, flags = ws_once, flags_once
        sm90_fwd.launch(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), out, lse, d ** -0.5, causal,
                        seq_k - s, workspace=(ws, flags), **TILES)
        return out.transpose(1, 2)
    return fn


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out")
    ap.add_argument("--shapes", default="1,4,512,64,1024;1,8,512,64,1024;1,4,512,64,4096;1,4,512,128,2048")
    ap.add_argument("--rounds", type=int, default=11)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    res = []
    for spec in args.shapes.split(";"):
        b, h, s, d, sk = (int(x) for x in spec.split(","))
        sets = bench.make_inputs(bench.Case(b, h, s, d, False), 4, seed=sk, seq_k=sk)
        kernels = {m: build((b, h, s, d), sk, m) for m in ("empty", "zeros", "once")}
        ref = kernels["once"](*sets[0], False).clone()
        same = {m: bool(torch.equal(kernels[m](*sets[0], False), ref)) for m in kernels}
        times = interleaved_ms(kernels, sets, False, rounds=args.rounds, batch_ms=5.0, graph=True)
        us = {n: statistics.median(t) * 1000 for n, t in times.items()}
        res.append(dict(shape=[b, h, s, d], seq_k=sk, us=us, equal_outputs=same))
        print(f"{spec}: " + "  ".join(f"{n} {u:.2f} us" for n, u in us.items()) + f"  outputs equal {same}",
              flush=True)
    with open(os.path.join(args.out, "split_kv_flags.json"), "w") as f:
        json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
