"""Session 16: the Gluon kernel with its shape arguments unspecialised (sm90_fwd.SHAPE_ARGS; one binary per variant)
against the same kernel as Triton specialises it by default (an integer equal to 1 a constant, one divisible by 16 an
alignment hint): both through the API in CUDA-graph replay, interleaved rounds, median of per-round ratios (`xS`: the
unspecialised kernel's speedup). The specialised one is the working tree's source with the decorator's argument
removed, written next to sm90_fwd.py as _ab_sm90_fwd_specialised.py (small_tiles.module_variant) and swapped in for
each call.

    PYTHONPATH=src:scripts python3 scripts/spec_ab.py --out DIR [--shapes B,H,Sq,Sk,D[,H_kv][,c];...]
"""
import argparse
import json
import os
import statistics

import torch

import dhpfa
from dhpfa.kernels import sm90_fwd
from dhpfa.measure.bench import interleaved_ms
from small_tiles import module_variant, patched_call  # scripts/

SHAPES = ("1,16,16384,16384,128;1,16,16384,16384,128,16,c;4,16,4096,4096,128;32,16,512,512,128;1,32,16384,16384,64;"
          "1,8,16384,16384,256;1,8,512,512,64;1,32,1,8192,128,8;8,32,1,8192,128,8;1,8,1,32768,256,1;"
          "4,16,300,5000,128,4;1,4,300,4096,128;1,8,1,16384,64,1;1,16,1,8192,96,4")


def specialised_module():
    return module_variant(sm90_fwd, "@gluon.jit(do_not_specialize=SHAPE_ARGS)", "@gluon.jit", "sm90_fwd_specialised")


def with_kernel(fn_kernel):
    """The API's call with sm90_fwd.attn_fwd_sm90_ws replaced by fn_kernel (plans and cached launchers made afresh)."""
    return patched_call(lambda q, k, v, causal: dhpfa.flash_attn_func(q, k, v, causal=causal), sm90_fwd,
                        "attn_fwd_sm90_ws", fn_kernel, clear_launchers=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out")
    ap.add_argument("--shapes", default=SHAPES)
    ap.add_argument("--rounds", type=int, default=11)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    spec = specialised_module()
    kernels = {"unspecialised": with_kernel(sm90_fwd.attn_fwd_sm90_ws),
               "specialised": with_kernel(spec.attn_fwd_sm90_ws)}
    rows = []
    for s in args.shapes.split(";"):
        f = s.split(",")
        causal = f[-1] == "c"
        f = [int(x) for x in (f[:-1] if causal else f)]
        b, h, sq, sk, d = f[:5]
        hk = f[5] if len(f) > 5 else h
        g = torch.Generator(device="cuda").manual_seed(0)
        sets = [tuple(torch.randn(b, n, hh, d, device="cuda", dtype=torch.bfloat16, generator=g)
                      for n, hh in ((sq, h), (sk, hk), (sk, hk))) for _ in range(3)]
        outs = [kernels[n](*sets[0], causal) for n in kernels]
        same = torch.equal(outs[0], outs[1])
        times = interleaved_ms(kernels, sets, causal, rounds=args.rounds, batch_ms=25.0, graph=True)
        us = {n: statistics.median(t) * 1e3 for n, t in times.items()}
        ratio = statistics.median(b_ / a for a, b_ in zip(times["unspecialised"], times["specialised"]))
        rows.append(dict(shape=s, us=us, xS=ratio, bitwise_equal=same))
        print(f"({s}) unspecialised {us['unspecialised']:.1f} us  specialised {us['specialised']:.1f} us  "
              f"xS {ratio:.3f}  outputs bitwise equal: {same}", flush=True)
        del sets
        torch.cuda.empty_cache()
    json.dump(rows, open(os.path.join(args.out, "spec_ab.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
