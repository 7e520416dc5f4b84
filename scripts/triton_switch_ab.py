"""A/B of a constexpr switch in the Triton kernels (triton_fwd.py: a module-level `NAME = tl.constexpr(os.environ...)`
line) through the API: the tree's module (switch off) against a copy with the switch set True (scripts/small_tiles
module_variant), both kernels attn_fwd and attn_fwd_tma swapped into triton_fwd.KERNELS for the second build's calls.
CUDA-graph replay, interleaved rounds in random order, SDPA flash / cuDNN beside; xS = median of per-round ratios
off / on time (> 1: the switch is faster). Outputs: bitwise comparison with the tree's and the relative error of
sampled rows against float64 (tma_one_loop_ab.rel_err).

    PYTHONPATH=src:scripts python3 scripts/triton_switch_ab.py --switch _TMA_SKIP_EMPTY --out DIR [--shapes ...]

Session 28: _TMA_SKIP_EMPTY (each of the two key-block loops of attn_fwd / attn_fwd_tma under a branch on its public
trip count, so a loop with no blocks does not set up and invalidate its ring barriers: non-causal calls whose keys are
a multiple of the block, and each head's first causal tiles).
"""
import argparse
import json
import os
import statistics

import torch

import dhpfa
from dhpfa.kernels import triton_fwd
from dhpfa.measure.bench import interleaved_ms, peer_kernels
from small_tiles import module_variant, patched_call  # scripts/
from tma_one_loop_ab import rel_err  # scripts/

SHAPES = ("32,32,512,64;32,32,512,64,c;16,32,1024,64;16,32,1024,64,c;8,32,2048,64,c;4,32,4096,64,c;1,8,512,64,c;"
          "4,16,1024,64;32,64,512,32;32,64,512,32,c;16,16,1024,128,c")


def switched_module(name):
    old = f'{name} = tl.constexpr(os.environ.get("DHPFA{name}", "0") == "1")'
    return module_variant(triton_fwd, old, f"{name} = tl.constexpr(True)", "triton_fwd" + name.lower())


def through_api(mod):
    call = lambda q, k, v, causal: dhpfa.scaled_dot_product_attention(q, k, v, is_causal=causal)  # noqa: E731
    inner = patched_call(call, triton_fwd.KERNELS, "attn_fwd_tma", mod.attn_fwd_tma, clear_launchers=True)
    return patched_call(inner, triton_fwd.KERNELS, "attn_fwd", mod.attn_fwd, clear_launchers=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out")
    ap.add_argument("--switch", default="_TMA_SKIP_EMPTY")
    ap.add_argument("--shapes", default=SHAPES)
    ap.add_argument("--rounds", type=int, default=15)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    mod = switched_module(args.switch)
    peers = peer_kernels()
    kernels = {"off": through_api(triton_fwd), "on": through_api(mod),
               "flash": peers["sdpa_flash"], "cudnn": peers["sdpa_cudnn"]}
    rows = []
    for s in args.shapes.split(";"):
        f = s.split(",")
        causal = f[-1] == "c"
        b, h, sq, d = [int(x) for x in (f[:-1] if causal else f)]
        g = torch.Generator(device="cuda").manual_seed(b * 1000 + sq + d)
        sets = [tuple(torch.randn(b, h, sq, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(3))
                for _ in range(3)]
        outs = {n: kernels[n](*sets[0], causal) for n in ("off", "on")}
        same = torch.equal(outs["off"], outs["on"])
        err = rel_err(outs["on"], *sets[0], causal)
        times = interleaved_ms(kernels, sets, causal, rounds=args.rounds, batch_ms=25.0, graph=True)
        us = {n: statistics.median(t) * 1e3 for n, t in times.items()}
        xs = statistics.median(a / b_ for a, b_ in zip(times["off"], times["on"]))
        flops = 4 * b * h * sq * sq * d / (2 if causal else 1)
        rows.append(dict(shape=s, us=us, xS=xs, bitwise_equal=same, rel_err=err,
                         tflops={n: flops / (u * 1e-6) / 1e12 for n, u in us.items()}))
        print(f"({s}) off {us['off']:.1f} us  on {us['on']:.1f}  flash {us['flash']:.1f}  cudnn {us['cudnn']:.1f}"
              f"  xS {xs:.3f}  on/flash {us['flash'] / us['on']:.3f}  off/flash {us['flash'] / us['off']:.3f}"
              f"  on/cudnn {us['cudnn'] / us['on']:.3f}  bitwise {same}  err {err:.1e}", flush=True)
        del sets, outs
        torch.cuda.empty_cache()
    json.dump(rows, open(os.path.join(args.out, f"switch{args.switch.lower()}_ab.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
