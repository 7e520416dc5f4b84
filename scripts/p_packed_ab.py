"""Session 25: the Gluon consumers' P carried to the next step's PV GEMM as 16-bit pairs in int32 words
(sm90_fwd.P_PACKED, the working tree) against P carried as a tensor of 16-bit values (the build before it, where ptxas
put one PRMT per operand register in every step's GEMM-issue turn: 32 per 64x128 block), through the API on the
16K-token grid's cells where the Gluon kernel runs, interleaved rounds (graph replay at S <= 1K), cuDNN beside them.
xP: median over rounds of unpacked / packed time (> 1: packed is faster). The unpacked build is the working tree's
sm90_fwd.py with the switch off, written next to it as _ab_sm90_fwd_unpacked.py (small_tiles.module_variant). Both
builds must give bitwise equal outputs (the same rounding of P), each checked against float64 on sampled rows.

    PYTHONPATH=src:scripts python3 scripts/p_packed_ab.py --out DIR [--cells D,S[,c];...] [--rounds N]

--switch L_MMA (session 25, device calls 6-7): the three-consumer build's row sums on the tensor cores (sm90_fwd.L_MMA)
against the sums on the FP32 pipes; the outputs then differ in rounding (l sums the 16-bit P the PV GEMM multiplies),
so each build is checked against float64 only.
"""
import argparse
import json
import multiprocessing as mp
import os
import statistics
import time

import torch

from dhpfa.kernels import sm90_fwd
from dhpfa.measure.bench import interleaved_ms, peer_kernels
from small_tiles import module_variant  # scripts/
from split_radix_ab import rel_err, with_kernel  # scripts/: the API on a patched sm90_fwd kernel; float64 rows

CELLS = ("128,16384;128,16384,c;128,8192;128,4096;128,2048;128,1024;128,512;128,2048,c;128,1024,c;128,512,c;"
         "64,16384;64,16384,c;64,8192;256,16384;256,16384,c;256,4096;256,1024;256,1024,c")
SWITCHES = ("P_PACKED", "L_MMA")


def unpacked_module(switch="P_PACKED"):
    """sm90_fwd with the switch off (the module's other switches as they are)."""
    return module_variant(sm90_fwd, f"{switch} = gl.constexpr(True)", f"{switch} = gl.constexpr(False)",
                          "sm90_fwd_unpacked")


def _warm(names):
    """Compile (no launch) the bf16 Gluon variants `names` in both builds into Triton's cache (a pool worker)."""
    from dhpfa.audit import placeholder_launch
    from dhpfa.kernels import variants
    import importlib
    other = importlib.import_module("dhpfa.kernels._ab_sm90_fwd_unpacked")
    for v in variants.shipped_variants():
        if v.name in names:
            grid, args, kwargs = placeholder_launch(v, "cuda")
            for fn in (sm90_fwd.attn_fwd_sm90_ws, other.attn_fwd_sm90_ws):
                fn.warmup(*args, grid=grid, **kwargs)
    return len(names)


def precompile(jobs=16):
    from dhpfa.kernels import variants
    names = [v.name for v in variants.shipped_variants() if v.kernel in variants.GLUON_KERNELS and
             v.dtype == torch.bfloat16 and not v.config.split_kv]
    t0 = time.time()
    with mp.get_context("spawn").Pool(jobs) as pool:
        n = sum(pool.map(_warm, [set(names[i::jobs]) for i in range(jobs)]))
    print(f"precompiled {n} variants x 2 builds in {time.time() - t0:.0f} s", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out")
    ap.add_argument("--cells", default=CELLS)
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--jobs", type=int, default=16)
    ap.add_argument("--switch", default="P_PACKED", choices=SWITCHES)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    unpacked = unpacked_module(args.switch)
    bitwise = args.switch == "P_PACKED"  # the same rounding either way
    if args.jobs:
        precompile(args.jobs)
    peers = peer_kernels()
    kernels = {"packed": with_kernel(sm90_fwd.attn_fwd_sm90_ws), "unpacked": with_kernel(unpacked.attn_fwd_sm90_ws)}
    rows, ok = [], True
    for cell in args.cells.split(";"):
        f = cell.split(",")
        causal = len(f) > 2 and f[2] == "c"
        d, s = int(f[0]), int(f[1])
        b, h = 16384 // s, 2048 // d
        g = torch.Generator(device="cuda").manual_seed(d + s + causal)
        sets = [tuple(torch.randn(b, s, h, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(3))
                for _ in range(3)]
        outs = {n: kernels[n](*sets[0], causal) for n in kernels}
        same = torch.equal(outs["packed"], outs["unpacked"])
        err = rel_err(outs["packed"], *sets[0], causal)
        err_off = rel_err(outs["unpacked"], *sets[0], causal)
        good = (same or not bitwise) and max(err, err_off) < 1e-2 and not outs["packed"].isnan().any()
        ok &= good
        timed = dict(kernels)
        cudnn = peers["sdpa_cudnn"]
        timed["cudnn"] = lambda q, k, v, c: cudnn(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), c)
        times = interleaved_ms(timed, sets, causal, rounds=args.rounds, batch_ms=25.0, graph=s <= 1024)
        flops = 4 * b * h * s * s * d / (2 if causal else 1)
        tf = {n: flops / (statistics.median(t) * 1e-3) / 1e12 for n, t in times.items()}
        x = statistics.median(u / p for p, u in zip(times["packed"], times["unpacked"]))
        rows.append(dict(cell=cell, switch=args.switch, tflops=tf, xP=x, rel_err=err, rel_err_off=err_off,
                         bitwise_equal=same))
        print(f"D={d} S={s}{' causal' if causal else ''}: on {tf['packed']:.0f} off {tf['unpacked']:.0f} "
              f"cudnn {tf['cudnn']:.0f} TFLOPS  xP {x:.3f}  err {err:.1e} / {err_off:.1e}  bitwise equal {same}"
              + ("" if good else "  FAIL"), flush=True)
        del sets, outs
        torch.cuda.empty_cache()
    json.dump(rows, open(os.path.join(args.out, f"{args.switch.lower()}_ab.json"), "w"), indent=1)
    print("correctness:", "all OK" if ok else "FAILURES")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
