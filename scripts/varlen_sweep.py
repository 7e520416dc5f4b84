"""Tile configurations of the varlen kernel (attn_fwd_varlen) on the device, against the shipped one, FA2's varlen
kernel and dhpfa's dense call on the padded batch: which tiles to ship per head dim (variants.VARLEN).

    PYTHONPATH=src python3 scripts/varlen_sweep.py --out $OUT/sweep [--rounds 7]

Workloads and TFLOPS as scripts/varlen_bench.py (useful work only, CUDA-graph replay, interleaved). Each config's output
is checked against the shipped config's (bf16, relative difference < 1e-2) before it is timed.
"""
import argparse
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src"))
import dhpfa  # noqa: E402
from dhpfa.kernels import dispatch, variants  # noqa: E402
from dhpfa.measure import stats  # noqa: E402
from dhpfa.measure.bench import interleaved_ms  # noqa: E402
from varlen_bench import offsets, visible, workload  # noqa: E402

T = variants.TileConfig
CONFIGS = {
    64: [T(64, 64, 4, 3), T(64, 64, 4, 2), T(64, 128, 4, 2), T(128, 64, 8, 3), T(128, 64, 8, 2), T(128, 128, 8, 2)],
    128: [T(64, 64, 4, 3), T(64, 64, 4, 2), T(64, 128, 4, 2), T(128, 64, 8, 3), T(128, 64, 8, 2), T(128, 128, 8, 2),
          T(128, 128, 8, 3)],
}


def run(kind, d, causal, rounds):
    h = 2048 // d
    lens = workload(kind)
    total, mx = sum(lens), max(lens)
    cu = offsets(lens)
    g = torch.Generator(device="cuda").manual_seed(d)
    packed = [tuple(torch.randn(total, h, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(3))
              for _ in range(3)]
    scale = d ** -0.5

    def launcher(cfg):
        v = variants.Variant(variants.VARLEN_KERNEL, cfg, torch.bfloat16, d, causal, public_loads=("CU_Q", "CU_K"))

        def fn(q, k, vv, causal_):
            out = torch.empty_like(q)
            lse = torch.empty(h, total, device="cuda")
            dispatch.launch_varlen(v, q, k, vv, out, lse, cu, cu, mx, scale)
            return out
        return fn
    kernels = {cfg.label(): launcher(cfg) for cfg in CONFIGS[d]}
    ref = dhpfa.flash_attn_varlen_func(*packed[0], cu, cu, mx, mx, causal=causal).float()
    diffs = {}
    for name, fn in kernels.items():
        o = fn(*packed[0], causal).float()
        diffs[name] = float((o - ref).norm() / ref.norm())
    kernels = {n: f for n, f in kernels.items() if diffs[n] < 1e-2}
    kernels["fa2_varlen"] = lambda q, k, v, c: torch.ops.aten._flash_attention_forward(q, k, v, cu, cu, mx, mx, 0.0, c,
                                                                                        False)[0]
    times = interleaved_ms(kernels, packed, causal, rounds=rounds, graph=True, errors={})
    flops = 4 * d * h * sum(visible(n, n, causal) for n in lens)
    row = {"kind": kind, "d": d, "causal": causal, "diffs": diffs,
           "tflops": {n: flops / stats.median(ts) / 1e9 for n, ts in times.items()}}
    best = max((n for n in row["tflops"] if n != "fa2_varlen"), key=row["tflops"].get)
    print(f"{kind:9s} D={d:3d} causal={causal!s:5s} best {best} " +
          "  ".join(f"{n} {t:.0f}" for n, t in row["tflops"].items()), flush=True)
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out/sweep")
    ap.add_argument("--rounds", type=int, default=7)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    rows = [run(kind, d, causal, a.rounds) for kind in ("mixed", "short", "uniform1k") for d in (64, 128)
            for causal in (False, True)]
    with open(os.path.join(a.out, "varlen_sweep.json"), "w") as f:
        json.dump({"device": torch.cuda.get_device_name(), "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
