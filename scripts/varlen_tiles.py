"""The varlen kernel's tile sizes on prefill workloads: each candidate TileConfig of attn_fwd_varlen (the plain build:
no window, soft-cap, split or grouped heads) launched directly through dispatch.launch_varlen on varlen_bench's
mixed (64-4096) and uniform (16 x 1024) batches, bf16, causal and not, timed by CUDA-graph replay in random order
per round (bench.interleaved_ms); every candidate's output is compared with the shipped tiles' first.

    PYTHONPATH=src:scripts python3 scripts/varlen_tiles.py --out $OUT/tiles [--rounds 7]
"""
import argparse
import dataclasses
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src"))
from varlen_bench import offsets, visible, workload  # noqa: E402

from dhpfa.kernels import dispatch, variants  # noqa: E402
from dhpfa.kernels.variants import TileConfig  # noqa: E402
from dhpfa.measure import stats  # noqa: E402
from dhpfa.measure.bench import interleaved_ms  # noqa: E402

CANDIDATES = {
    64: [TileConfig(64, 64, 4, 3), TileConfig(128, 64, 8, 3), TileConfig(128, 64, 8, 2), TileConfig(128, 32, 8, 3),
         TileConfig(128, 128, 8, 2)],
    128: [TileConfig(64, 64, 4, 3), TileConfig(128, 64, 8, 3), TileConfig(128, 64, 8, 2), TileConfig(128, 32, 8, 3)],
    256: [TileConfig(64, 32, 4, 3), TileConfig(128, 32, 8, 3), TileConfig(128, 64, 8, 2)],
}


def label(c):
    return f"{c.block_m}x{c.block_n}w{c.num_warps}s{c.num_stages}"


def run(kind, d, causal, rounds):
    h = 2048 // d
    lens = workload(kind)
    total, mx = sum(lens), max(lens)
    cu = offsets(lens)
    g = torch.Generator(device="cuda").manual_seed(d)
    sets = [tuple(torch.randn(total, h, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(3))
            for _ in range(3)]
    scale = d ** -0.5
    kernels = {}
    for cfg in CANDIDATES[d]:
        var = dataclasses.replace(variants.varlen_variant(torch.bfloat16, d, causal), config=cfg)

        def fn(q, k, v, c, var=var):
            out = torch.empty_like(q)
            lse = torch.empty(q.shape[1], q.shape[0], device="cuda", dtype=torch.float32)
            dispatch.launch_varlen(var, q, k, v, out, lse, cu, cu, mx, scale)
            return out
        kernels[label(cfg)] = fn
    ref = None
    diffs = {}
    for name, fn in kernels.items():
        o = fn(*sets[0], causal).float()
        ref = o if ref is None else ref
        diffs[name] = float((o - ref).norm() / ref.norm())
    errors = {}
    times = interleaved_ms(kernels, sets, causal, rounds=rounds, graph=True, errors=errors)
    flops = 4 * d * h * sum(visible(n, n, causal) for n in lens)
    row = {"kind": kind, "d": d, "causal": causal, "diffs": diffs, "errors": errors}
    for name, ts in times.items():
        row[name] = flops / stats.median(ts) / 1e9
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out/tiles")
    ap.add_argument("--rounds", type=int, default=7)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    rows = []
    for d in (64, 128, 256):
        for kind in ("mixed", "uniform1k"):
            for causal in (False, True):
                rows.append(run(kind, d, causal, a.rounds))
                r = rows[-1]
                print(f"{kind:9s} D={d:3d} causal={causal!s:5s}: " + "  ".join(
                    f"{n} {r[n]:.0f}" for n in r if n[0].isdigit()) + f"  maxdiff {max(r['diffs'].values()):.1e} "
                    f"{r['errors']}", flush=True)
    with open(os.path.join(a.out, "varlen_tiles.json"), "w") as f:
        json.dump({"device": torch.cuda.get_device_name(), "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
