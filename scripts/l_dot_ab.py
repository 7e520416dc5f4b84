"""Session 25 (experiment): attn_fwd_tma's row sums at BLOCK_D = 64 on the tensor cores (triton_fwd.L_DOT: l += P @ ones,
one N=16 dot beside the PV dot) against the sums on the FP32 pipes, through the API (the D=64 tiles at S <= 2K: issue
2's D=64 S=512 / 1K cells), CUDA-graph replay, interleaved rounds, SDPA backends beside them. xL = median of per-round
ratios off / on (> 1: the tensor-core sums are faster). The off build is the tree's triton_fwd.py with the switch off,
written next to it as _ab_triton_fwd_l_dot_off.py and swapped into triton_fwd.KERNELS for its calls. Each output is
checked against float64 on sampled rows (tma_one_loop_ab.rel_err).

    git apply docs/experiments/session25_l_dot.diff   (the switch; reverted after device call 9)
    PYTHONPATH=src:scripts python3 scripts/l_dot_ab.py --out DIR [--shapes B,H,S,D[,c];...] [--rounds N]

Device call 9 (H200): x0.81-0.89 everywhere (slower; correct: within 2.3e-3 of float64, 12 GPU tests passed). Unlike
the Gluon three-consumer build (sm90_fwd.L_MMA, x1.09), Triton's smallest dot is N=16 (a quarter of the PV GEMM at
D=64), and the kernel's step saved only 23 of 297 instructions.
"""
import argparse
import json
import os
import statistics

import torch

from dhpfa.kernels import triton_fwd
from dhpfa.measure.bench import interleaved_ms, peer_kernels
from small_tiles import module_variant  # scripts/
from tma_one_loop_ab import rel_err, shape_sets, with_tma  # scripts/

SHAPES = "32,32,512,64;32,32,512,64,c;16,32,1024,64;16,32,1024,64,c;8,32,2048,64;8,32,2048,64,c;4,16,1024,64"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out")
    ap.add_argument("--shapes", default=SHAPES)
    ap.add_argument("--rounds", type=int, default=15)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    off = module_variant(triton_fwd, "L_DOT = tl.constexpr(True)", "L_DOT = tl.constexpr(False)", "triton_fwd_l_dot_off")
    peers = peer_kernels()
    kernels = {"on": with_tma(triton_fwd.attn_fwd_tma), "off": with_tma(off.attn_fwd_tma),
               "flash": peers["sdpa_flash"], "cudnn": peers["sdpa_cudnn"]}
    rows, ok = [], True
    for s in args.shapes.split(";"):
        b, h, sq, d, causal, sets = shape_sets(s)
        errs = {n: rel_err(kernels[n](*sets[0], causal), *sets[0], causal) for n in ("on", "off")}
        ok &= max(errs.values()) < 1e-2
        times = interleaved_ms(kernels, sets, causal, rounds=args.rounds, batch_ms=25.0, graph=True)
        us = {n: statistics.median(t) * 1e3 for n, t in times.items()}
        x = statistics.median(a / b_ for a, b_ in zip(times["off"], times["on"]))
        rows.append(dict(shape=s, us=us, xL=x, rel_err=errs))
        print(f"({s}) on {us['on']:.1f} us  off {us['off']:.1f}  flash {us['flash']:.1f}  cudnn {us['cudnn']:.1f}  xL {x:.3f}"
              f"  on/flash x{us['flash'] / us['on']:.2f}  off/flash x{us['flash'] / us['off']:.2f}  on/cudnn "
              f"x{us['cudnn'] / us['on']:.3f}  err {errs['on']:.1e} / {errs['off']:.1e}", flush=True)
        del sets
        torch.cuda.empty_cache()
    json.dump(rows, open(os.path.join(args.out, "l_dot_ab.json"), "w"), indent=1)
    print("correctness:", "all OK" if ok else "FAILURES")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
