"""Session 24: the Triton TMA kernel (attn_fwd_tma: the API's D=64 tiles at S <= 2K, few-program causal grids, the
padded D=96 / 192 defaults) with every key block in one loop (triton_fwd._TMA_ONE_LOOP: the masked blocks take the
mask under a branch on the public bound n_full) against the shipped two loops (unmasked, then masked: two software
pipelines, each setting up and invalidating its ring barriers; offline 1,376 -> 928 instructions and 40 -> 23
BAR.SYNC at D=64). Both through the API, with the SDPA backends beside them, in CUDA-graph replay, interleaved rounds
in random order; x1 = median of per-round ratios base / one-loop (> 1: the one loop is faster). The one-loop kernel is
the tree's triton_fwd.py with the switch on, written next to it as _ab_triton_fwd_one_loop.py and swapped into
triton_fwd.KERNELS for its calls. Outputs: bitwise comparison with the shipped kernel and relative error of sampled
rows against float64.

    git apply docs/experiments/session24_tma_one_loop.diff   (the switch; reverted after run 2)
    PYTHONPATH=src:scripts python3 scripts/tma_one_loop_ab.py --out DIR [--shapes B,H,S,D[,c];...]

Run 2 (H200): the one-loop kernel gave wrong outputs on the GPU (relative error 0.4-0.8 wherever the API ran
attn_fwd_tma) while the interpreter's tests passed with it (16x16 tiles, one stage), and no speed gain worth chasing
(x0.97-1.02 but x1.055 at causal S=512, on wrong outputs).
"""
import argparse
import json
import os
import statistics

import torch

import dhpfa
from dhpfa.kernels import triton_fwd
from dhpfa.measure.bench import interleaved_ms, peer_kernels
from dhpfa.reference import attention_ref_rows
from small_tiles import module_variant, patched_call  # scripts/

SHAPES = ("32,32,512,64;32,32,512,64,c;16,32,1024,64;16,32,1024,64,c;8,32,2048,64;8,32,2048,64,c;1,8,512,64;"
          "1,8,512,64,c;4,16,1024,64;8,16,2048,96;8,16,2048,96,c;8,8,2048,192;8,8,2048,192,c;2,8,1024,64,c")


def one_loop_module():
    return module_variant(triton_fwd, '_TMA_ONE_LOOP = tl.constexpr(os.environ.get("DHPFA_TMA_ONE_LOOP", "0") == "1")',
                          "_TMA_ONE_LOOP = tl.constexpr(True)", "triton_fwd_one_loop")


def with_tma(kernel):
    return patched_call(lambda q, k, v, causal: dhpfa.scaled_dot_product_attention(q, k, v, is_causal=causal),
                        triton_fwd.KERNELS, "attn_fwd_tma", kernel, clear_launchers=True)


def shape_sets(spec):
    """(b, h, sq, d, causal, sets) of a "B,H,S,D[,c]" shape: three bf16 (q, k, v) sets on the GPU, (B, H, S, D), seeded
    by the shape (the A/B scripts' inputs)."""
    f = spec.split(",")
    causal = f[-1] == "c"
    b, h, sq, d = [int(x) for x in (f[:-1] if causal else f)]
    g = torch.Generator(device="cuda").manual_seed(b * 1000 + sq + d)
    sets = [tuple(torch.randn(b, h, sq, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(3))
            for _ in range(3)]
    return b, h, sq, d, causal, sets


def rel_err(out, q, k, v, causal):
    """Worst relative error of sampled rows of two (batch, head) pairs against float64; (B, H, S, D) inputs."""
    q, k, v, out = (t.transpose(1, 2) for t in (q, k, v, out))
    b, sq, h, d = q.shape
    rows = torch.unique(torch.linspace(0, sq - 1, min(sq, 300), device=q.device).long())
    worst = 0.0
    for bb, hh in {(0, 0), (b - 1, h - 1)}:
        ro, _ = attention_ref_rows(q, k, v, d ** -0.5, 0 if causal else None, bb, hh, rows)
        worst = max(worst, float((out[bb, rows, hh].double() - ro).norm() / ro.norm()))
    return worst


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out")
    ap.add_argument("--shapes", default=SHAPES)
    ap.add_argument("--rounds", type=int, default=11)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    one = one_loop_module()
    peers = peer_kernels()
    kernels = {"base": with_tma(triton_fwd.attn_fwd_tma), "one": with_tma(one.attn_fwd_tma),
               "flash": peers["sdpa_flash"], "cudnn": peers["sdpa_cudnn"]}
    rows = []
    for s in args.shapes.split(";"):
        b, h, sq, d, causal, sets = shape_sets(s)
        outs = {n: kernels[n](*sets[0], causal) for n in ("base", "one")}
        same = torch.equal(outs["base"], outs["one"])
        err = rel_err(outs["one"], *sets[0], causal)
        times = interleaved_ms(kernels, sets, causal, rounds=args.rounds, batch_ms=25.0, graph=True)
        us = {n: statistics.median(t) * 1e3 for n, t in times.items()}
        x1 = statistics.median(a / b_ for a, b_ in zip(times["base"], times["one"]))
        flops = 4 * b * h * sq * sq * d / (2 if causal else 1)
        rows.append(dict(shape=s, us=us, x1=x1, bitwise_equal=same, rel_err=err,
                         tflops={n: flops / (u * 1e-6) / 1e12 for n, u in us.items()}))
        print(f"({s}) base {us['base']:.1f} us  one {us['one']:.1f}  flash {us['flash']:.1f}  cudnn {us['cudnn']:.1f}"
              f"  x1 {x1:.3f}  one/flash {us['flash'] / us['one']:.2f}  base/flash {us['flash'] / us['base']:.2f}"
              f"  bitwise {same}  err {err:.1e}", flush=True)
        del sets, outs
        torch.cuda.empty_cache()
    json.dump(rows, open(os.path.join(args.out, "tma_one_loop_ab.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
