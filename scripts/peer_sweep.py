"""Session 45: where the API stands against cuDNN and FlashAttention-2 (SDPA backends) outside the protocol's grid: a
sweep over head dims and (B, H, S_q, S_k) shapes of few, mid and many programs, causal (S_q = S_k) and not, in CUDA-graph
replay of many calls (bench.interleaved_ms, rounds in random order). Each cell also records the variant the API's plan
chose, so that cells where the API trails a peer point at the rule to look at.

    PYTHONPATH=src:scripts python3 scripts/peer_sweep.py --out DIR [--rounds 5] [--dims 32,64,96,128,256]
"""
import argparse
import json
import os
import statistics
import time

import torch

from dhpfa.measure import bench
from dhpfa.measure.bench import interleaved_ms

# (B, H, S_q, S_k): 64-row tiles 64 / 128 / 256 / 512 / 1,024 and more, keys 128 to 16K
SHAPES = [(1, 8, 512, 512), (1, 16, 512, 2048), (1, 32, 512, 2048), (2, 16, 1024, 1024), (1, 8, 4096, 4096),
          (4, 8, 256, 4096), (8, 16, 128, 128), (1, 4, 16384, 16384)]


def _cells(dims):
    return [(d, b, h, sq, sk, causal) for d in dims for b, h, sq, sk in SHAPES
            for causal in ((False, True) if sq == sk else (False,))]


def _warm(cell):
    """One API call of a cell in a worker process: compiles its variant into Triton's cache (shared on disk)."""
    import dhpfa
    d, b, h, sq, sk, causal = cell
    q = torch.randn(b, h, sq, d, device="cuda", dtype=torch.bfloat16)
    k = torch.randn(b, h, sk, d, device="cuda", dtype=torch.bfloat16)
    dhpfa.scaled_dot_product_attention(q, k, k, is_causal=causal)
    torch.cuda.synchronize()
    return cell


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--dims", default="32,64,96,128,256")
    ap.add_argument("--budget-s", type=float, default=300.0, help="stop starting new cells after this many seconds")
    ap.add_argument("--precompile", type=int, default=0, help="first compile every cell's variant on N processes")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    from dhpfa import api
    t0 = time.time()
    cells = _cells([int(x) for x in args.dims.split(",")])
    if args.precompile:
        import multiprocessing as mp
        with mp.get_context("spawn").Pool(args.precompile) as pool:
            for _ in pool.imap_unordered(_warm, cells):
                pass
        print(f"precompiled {len(cells)} cells in {time.time() - t0:.0f} s", flush=True)
        t0 = time.time()
    peers = bench.peer_kernels()
    kernels = {n: peers[n] for n in ("dhpfa", "sdpa_cudnn", "sdpa_flash")}
    rows = []
    for d, b, h, sq, sk, causal in cells:
        if time.time() - t0 > args.budget_s:
            break
        g = torch.Generator(device="cuda").manual_seed(b * h + sq + sk + d)
        sets = [tuple(torch.randn(b, h, s, d, device="cuda", dtype=torch.bfloat16, generator=g)
                      for s in (sq, sk, sk)) for _ in range(3)]
        api._PLANS.clear()
        kernels["dhpfa"](*sets[0], causal)
        variant = ";".join(sorted({p.variant.name for p in api._PLANS.values() if p.variant is not None}))
        errors = {}
        times = interleaved_ms(kernels, sets, causal, rounds=args.rounds, graph=True, batch_ms=5.0,
                               errors=errors)
        us = {n: statistics.median(t) * 1000 for n, t in times.items()}
        x = {n: statistics.median(c / a for a, c in zip(times["dhpfa"], t)) for n, t in times.items()}
        row = dict(d=d, shape=[b, h, sq, sk], causal=causal, us=us, peer_over_api=x, variant=variant,
                   errors=errors)
        rows.append(row)
        flag = " <" if any(v < 1.0 for n, v in x.items() if n != "dhpfa") else ""
        print(f"D={d} {(b, h, sq, sk)}{' causal' if causal else ''}: " +
              "  ".join(f"{n}={u:.2f}us" + (f"(x{x[n]:.2f})" if n != "dhpfa" else "") for n, u in us.items())
              + f"  [{variant}]{flag}", flush=True)
        with open(os.path.join(args.out, "peer_sweep.json"), "w") as f:
            json.dump(dict(device=torch.cuda.get_device_name(), rows=rows), f, indent=1)
    print(f"{len(rows)} cells in {time.time() - t0:.0f} s; x = peer time over the API's (below 1: the peer is faster)")


if __name__ == "__main__":
    main()
