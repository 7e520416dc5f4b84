"""Session 45: where the API stands against cuDNN and FlashAttention-2 (SDPA backends) outside the protocol's grid: a
sweep over head dims and (B, H, S_q, S_k) shapes of few, mid and many programs, causal (S_q = S_k) and not, in CUDA-graph
replay of many calls (bench.interleaved_ms, rounds in random order). Each cell also records the variant the API's plan
chose, so that cells where the API trails a peer point at the rule to look at.

    PYTHONPATH=src:scripts python3 scripts/peer_sweep.py --out DIR [--rounds 5] [--dims 32,64,96,128,256] [--set wide]

Session 46, --set wide: the cells the first sweep left out (its note 4): fp16, grouped key/value heads (the peers with
enable_gqa=True), decode (one query, and a few) over long keys, and fewer keys than queries; at D = 64 and 128 (or
--dims).
Session 47, --set wide3: serving shapes (decode over batches and lengths, MHA / MQA decode, chunks against caches).
Session 60, --set steps: decode of grouped heads at the key counts a serving loop steps through (a power of two, one
past it, and lengths between), where the swap decode kernel's parts hold whole 128-key blocks.
Session 65, --set decodemap [--peers sdpa_cudnn]: decode of grouped heads over 16-1,600 pairs and 1,024-16,384 keys.
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


# --set wide: (B, H, H_kv, S_q, S_k, causals, dtypes)
WIDE = [(1, 8, 8, 512, 512, (False, True), ("fp16",)), (2, 16, 16, 1024, 1024, (False, True), ("fp16",)),
        (1, 8, 8, 4096, 4096, (False, True), ("fp16",)), (1, 32, 8, 512, 512, (False, True), ("bf16",)),
        (1, 32, 4, 2048, 2048, (False, True), ("bf16",)), (4, 32, 8, 2048, 2048, (False, True), ("bf16",)),
        (1, 64, 8, 4096, 4096, (True,), ("bf16",)), (8, 32, 8, 1, 4096, (False,), ("bf16", "fp16")),
        (1, 32, 8, 1, 32768, (False,), ("bf16",)), (32, 32, 32, 1, 2048, (False,), ("bf16",)),
        (64, 16, 16, 1, 1024, (False,), ("bf16",)), (4, 32, 8, 16, 8192, (False,), ("bf16",)),
        (1, 32, 32, 128, 8192, (False,), ("bf16",)), (1, 16, 16, 2048, 512, (False,), ("bf16",)),
        (1, 8, 8, 8192, 1024, (False,), ("bf16",)), (2, 16, 16, 1024, 4096, (False,), ("bf16",))]
# --set wide2 (session 46 call 4): (head dims, B, H, H_kv, S_q, S_k, causals, dtypes): the other head dims, odd lengths
# and batches, grouped prefill, a few queries (speculative decoding), fewer queries than keys, fp16 at D=256
WIDE2 = [((32, 96, 192), 1, 8, 8, 2048, 2048, (False, True), ("bf16",)),
         ((32, 96), 2, 16, 16, 1024, 1024, (False, True), ("bf16",)), ((32,), 1, 16, 16, 4096, 4096, (False,), ("bf16",)),
         ((96, 192), 4, 12, 12, 512, 512, (False, True), ("bf16",)), ((192,), 2, 8, 8, 1024, 1024, (False,), ("bf16",)),
         ((64, 128), 3, 20, 20, 3000, 3000, (False, True), ("bf16",)), ((64, 128), 2, 12, 12, 2048, 2048, (False,), ("bf16",)),
         ((64,), 4, 12, 12, 1000, 1000, (False, True), ("bf16",)), ((128,), 2, 32, 8, 1024, 1024, (False, True), ("bf16",)),
         ((128,), 1, 40, 8, 4096, 4096, (True,), ("bf16",)), ((64,), 2, 32, 4, 4096, 4096, (True,), ("bf16",)),
         ((64, 128), 8, 32, 8, 4, 4096, (False,), ("bf16",)), ((128,), 16, 32, 8, 8, 2048, (False,), ("bf16",)),
         ((64,), 8, 32, 32, 1, 4096, (False,), ("bf16",)), ((64, 128), 128, 8, 8, 1, 512, (False,), ("bf16",)),
         ((256,), 2, 8, 8, 2048, 2048, (False, True), ("fp16",)), ((128,), 1, 16, 16, 1024, 8192, (False,), ("bf16",)),
         ((64,), 1, 32, 32, 512, 4096, (False,), ("bf16",)), ((128,), 1, 32, 32, 32768, 32768, (True,), ("bf16",))]
# --set wide3 (session 47): serving shapes: decode (one query) of grouped heads over batches of 1-64 sequences and
# 1,024-65,536 keys, MHA and MQA decode, and chunks of queries against longer caches (non-causal: SDPA's is_causal
# aligns top-left)
WIDE3 = ([((64, 128), b, 32, 8, 1, sk, (False,), ("bf16",)) for b in (1, 2, 4, 16, 64) for sk in (1024, 4096, 16384)] +
         [((64, 128), 1, 32, 8, 1, 65536, (False,), ("bf16",)), ((64, 128), 4, 32, 32, 1, 4096, (False,), ("bf16",)),
          ((64, 128), 16, 32, 32, 1, 4096, (False,), ("bf16",)), ((64, 128), 4, 32, 1, 1, 8192, (False,), ("bf16",)),
          ((128,), 8, 28, 4, 1, 4096, (False,), ("bf16",)), ((128,), 16, 32, 8, 1, 4096, (False,), ("fp16",)),
          ((64, 128), 1, 32, 8, 512, 8192, (False,), ("bf16",)), ((64, 128), 4, 32, 8, 256, 4096, (False,), ("bf16",)),
          ((128,), 1, 32, 8, 2048, 16384, (False,), ("bf16",)), ((128,), 2, 32, 8, 128, 8192, (False,), ("bf16",))])
# --set steps (session 60): decode (one query) of grouped heads at key counts on and just past powers of two and between
STEPS = [((64, 128), b, h, hk, 1, sk, (False,), ("bf16",)) for b, h, hk in ((1, 32, 8), (2, 32, 8), (4, 32, 8), (1, 32, 4))
         for sk in (2048, 2049, 3000, 4096, 4097, 6000, 8192, 8193, 12000, 16384, 16385)]
# --set decodemap (session 65): decode (one query) of grouped heads (32 / 8) over 16-1,600 (sequence, key/value head)
# pairs and 1,024-16,384 keys at D = 64 / 128: where the API still trails cuDNN after the decode rules of sessions 54-65
DECODEMAP = [((64, 128), b, 32, 8, 1, sk, (False,), ("bf16",)) for sk in (1024, 4096, 16384)
             for b in (2, 8, 17, 24, 33, 40, 50, 66, 80, 100, 133, 166, 200)]
DTYPES = {"bf16": torch.bfloat16, "fp16": torch.float16}


def _cells(dims, which="grid"):
    """(D, B, H, H_kv, S_q, S_k, causal, dtype name) for every cell of the set."""
    if which in ("wide2", "wide3", "steps", "decodemap"):
        return [(d, b, h, hk, sq, sk, causal, dt)
                for ds, b, h, hk, sq, sk, causals, dts in {"wide2": WIDE2, "wide3": WIDE3, "steps": STEPS,
                                                           "decodemap": DECODEMAP}[which]
                for d in ds
                if dims is None or d in dims for causal in causals for dt in dts]
    if which == "wide":
        return [(d, b, h, hk, sq, sk, causal, dt) for d in dims for b, h, hk, sq, sk, causals, dts in WIDE
                for causal in causals for dt in dts]
    return [(d, b, h, h, sq, sk, causal, "bf16") for d in dims for b, h, sq, sk in SHAPES
            for causal in ((False, True) if sq == sk else (False,))]


def _inputs(cell, generator=None):
    d, b, h, hk, sq, sk, _causal, dt = cell
    return tuple(torch.randn(b, n, s, d, device="cuda", dtype=DTYPES[dt], generator=generator)
                 for n, s in ((h, sq), (hk, sk), (hk, sk)))


def _warm(cell):
    """One API call of a cell in a worker process: compiles its variant into Triton's cache (shared on disk)."""
    import dhpfa
    q, k, v = _inputs(cell)
    dhpfa.scaled_dot_product_attention(q, k, v, is_causal=cell[6], enable_gqa=cell[2] != cell[3])
    torch.cuda.synchronize()
    return cell


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--dims", default=None, help="head dims (default 32,64,96,128,256; 64,128 with --set wide)")
    ap.add_argument("--set", default="grid", choices=("grid", "wide", "wide2", "wide3", "steps", "decodemap"))
    ap.add_argument("--budget-s", type=float, default=300.0, help="stop starting new cells after this many seconds")
    ap.add_argument("--precompile", type=int, default=0, help="first compile every cell's variant on N processes")
    ap.add_argument("--peers", default="sdpa_cudnn,sdpa_flash", help="the SDPA backends timed beside the API")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    from dhpfa import api
    t0 = time.time()
    dims = args.dims or {"wide": "64,128", "wide2": None, "wide3": None, "steps": None, "decodemap": None}.get(
        args.set, "32,64,96,128,256")
    cells = _cells(dims and [int(x) for x in dims.split(",")], args.set)
    if args.precompile:
        import multiprocessing as mp
        with mp.get_context("spawn").Pool(args.precompile) as pool:
            for _ in pool.imap_unordered(_warm, cells):
                pass
        print(f"precompiled {len(cells)} cells in {time.time() - t0:.0f} s", flush=True)
        t0 = time.time()
    names = ("dhpfa", *args.peers.split(","))
    by_gqa = {g: {n: bench.peer_kernels(gqa=g)[n] for n in names} for g in (False, True)}
    rows = []
    for cell in cells:
        d, b, h, hk, sq, sk, causal, dt = cell
        if time.time() - t0 > args.budget_s:
            break
        kernels = by_gqa[h != hk]
        g = torch.Generator(device="cuda").manual_seed(b * h + hk + sq + sk + d)
        sets = [_inputs(cell, g) for _ in range(3)]
        api._PLANS.clear()
        kernels["dhpfa"](*sets[0], causal)
        variant = ";".join(sorted({p.variant.name for p in api._PLANS.values() if p.variant is not None}))
        errors = {}
        times = interleaved_ms(kernels, sets, causal, rounds=args.rounds, graph=True, batch_ms=5.0,
                               errors=errors)
        us = {n: statistics.median(t) * 1000 for n, t in times.items()}
        x = {n: statistics.median(c / a for a, c in zip(times["dhpfa"], t)) for n, t in times.items()}
        row = dict(d=d, shape=[b, h, sq, sk], h_kv=hk, dtype=dt, causal=causal, us=us, peer_over_api=x,
                   variant=variant, errors=errors)
        rows.append(row)
        flag = " <" if any(v < 1.0 for n, v in x.items() if n != "dhpfa") else ""
        print(f"D={d} {(b, h, sq, sk)}{f' kv{hk}' if hk != h else ''}{' causal' if causal else ''}"
              f"{' ' + dt if dt != 'bf16' else ''}: " +
              "  ".join(f"{n}={u:.2f}us" + (f"(x{x[n]:.2f})" if n != "dhpfa" else "") for n, u in us.items())
              + f"  [{variant}]{flag}", flush=True)
        with open(os.path.join(args.out, f"peer_sweep{'' if args.set == 'grid' else '_' + args.set}.json"), "w") as f:
            json.dump(dict(device=torch.cuda.get_device_name(), rows=rows), f, indent=1)
    print(f"{len(rows)} cells in {time.time() - t0:.0f} s; x = peer time over the API's (below 1: the peer is faster)")


if __name__ == "__main__":
    main()
