"""A/B of a constexpr switch in the Triton kernels (triton_fwd.py: a module-level line `NAME = tl.constexpr(...)`, its
value read from the environment) through the API: the tree's module (the switch as the environment leaves it, off)
against copies with the line replaced by `NAME = tl.constexpr(VALUE)` for each of --values (scripts/small_tiles
module_variant), the kernels attn_fwd and attn_fwd_tma swapped into triton_fwd.KERNELS for their calls. CUDA-graph
replay, interleaved rounds in random order, SDPA flash / cuDNN beside; x<VALUE> = median of per-round ratios off /
that build's time (> 1: the build is faster). Outputs: bitwise comparison with the tree's and the relative error of
sampled rows against float64 (tma_one_loop_ab.rel_err).

    PYTHONPATH=src:scripts python3 scripts/triton_switch_ab.py --switch NAME [--values True] --out DIR [--shapes ...]

Session 28 runs 1-3: _TMA_SKIP_EMPTY (since removed: attn_fwd_tma's masked loop now runs under a branch on its public
block count, and the same around the unmasked loop or in attn_fwd did not pay); runs 4-5: _TMA_MASKED_STAGES (2 ships
for the 64x64 tiles) and _TMA_CAUSAL_ONE_LOOP (wrong outputs at D=64 on the GPU); run 10 _TMA_PREFETCH (slower); run 11
--attr TMA_GRID3 (mixed); run 12 _TMA_MAGIC (ships). Every one of these switches has since been removed from the tree;
docs/experiments/session28_*.diff hold the edits that did not ship.
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
from tma_one_loop_ab import rel_err, shape_sets  # scripts/

SHAPES = ("32,32,512,64;32,32,512,64,c;16,32,1024,64;16,32,1024,64,c;8,32,2048,64,c;4,32,4096,64,c;1,8,512,64,c;"
          "4,16,1024,64;32,64,512,32;32,64,512,32,c;16,16,1024,128,c")


def switched_module(name, value):
    (old,) = [ln for ln in open(triton_fwd.__file__).read().splitlines() if ln.startswith(f"{name} = tl.constexpr(")]
    return module_variant(triton_fwd, old, f"{name} = tl.constexpr({value})",
                          f"triton_fwd{name.lower()}_{str(value).lower()}")


def with_attr(name, value):
    """The API with triton_fwd.<name> (a Python-level setting read by launch_args) set to value for the call."""
    call = lambda q, k, v, causal: dhpfa.scaled_dot_product_attention(q, k, v, is_causal=causal)  # noqa: E731
    return patched_call(call, triton_fwd, name, value, clear_launchers=True)


def through_api(mod):
    call = lambda q, k, v, causal: dhpfa.scaled_dot_product_attention(q, k, v, is_causal=causal)  # noqa: E731
    inner = patched_call(call, triton_fwd.KERNELS, "attn_fwd_tma", mod.attn_fwd_tma, clear_launchers=True)
    return patched_call(inner, triton_fwd.KERNELS, "attn_fwd", mod.attn_fwd, clear_launchers=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out")
    ap.add_argument("--switch", required=True)
    ap.add_argument("--attr", action="store_true", help="--switch names a Python-level setting of triton_fwd (values "
                    "as Python literals), patched for the call, not a constexpr line")
    ap.add_argument("--values", default="True", help="comma-separated values, one build each")
    ap.add_argument("--shapes", default=SHAPES)
    ap.add_argument("--rounds", type=int, default=15)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    values = args.values.split(",")
    peers = peer_kernels()
    kernels = {"off": through_api(triton_fwd)}
    if args.attr:
        import ast
        kernels.update({v: with_attr(args.switch, ast.literal_eval(v)) for v in values})
    else:
        kernels.update({v: through_api(switched_module(args.switch, v)) for v in values})
    kernels.update(flash=peers["sdpa_flash"], cudnn=peers["sdpa_cudnn"])
    rows = []
    for s in args.shapes.split(";"):
        b, h, sq, d, causal, sets = shape_sets(s)
        outs = {n: kernels[n](*sets[0], causal) for n in ["off"] + values}
        same = {v: torch.equal(outs["off"], outs[v]) for v in values}
        err = {v: rel_err(outs[v], *sets[0], causal) for v in values}
        times = interleaved_ms(kernels, sets, causal, rounds=args.rounds, batch_ms=25.0, graph=True)
        us = {n: statistics.median(t) * 1e3 for n, t in times.items()}
        xs = {v: statistics.median(a / b_ for a, b_ in zip(times["off"], times[v])) for v in values}
        flops = 4 * b * h * sq * sq * d / (2 if causal else 1)
        rows.append(dict(shape=s, us=us, x=xs, bitwise_equal=same, rel_err=err,
                         tflops={n: flops / (u * 1e-6) / 1e12 for n, u in us.items()}))
        print(f"({s}) off {us['off']:.1f} us  flash {us['flash']:.1f}  cudnn {us['cudnn']:.1f}  off/flash "
              f"{us['flash'] / us['off']:.3f}  off/cudnn {us['cudnn'] / us['off']:.3f}" + "".join(
                  f" | {v}: {us[v]:.1f} us x{xs[v]:.3f} /flash {us['flash'] / us[v]:.3f}"
                  f" /cudnn {us['cudnn'] / us[v]:.3f} bitwise {same[v]} err {err[v]:.1e}" for v in values), flush=True)
        del sets, outs
        torch.cuda.empty_cache()
    json.dump(rows, open(os.path.join(args.out, f"switch{args.switch.lower()}_ab.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
