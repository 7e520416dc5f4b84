"""D=64 decode with the portable kernel's split grouped build held to 128 registers (Triton's maxnreg option): 139
registers fit 3 programs an SM, 128 fit 4 (its shared memory fits 4). Offline (session 36) the build compiles to 127
registers with no stack. Decode steps through flash_attn_with_kvcache (32 / 8 heads, full caches, causal=False, the
API's split rule), CUDA-graph replay, both forms in each of --rounds rounds in random order; x = default / maxnreg.

    PYTHONPATH=src:scripts python3 scripts/maxnreg_ab.py [--rounds 7] [--out DIR]
"""
import argparse
import json
import os
import statistics

import torch

import dhpfa
from decode_cases import decode_case, interleaved_graph_ms
from dhpfa import api
from dhpfa.kernels import dispatch, triton_fwd

SHAPES = ((1, 32768), (8, 4096), (8, 16384), (16, 8192), (32, 4096), (64, 2048), (128, 1024), (24, 3000))
_args = triton_fwd.varlen_launch_args
FORM = {"maxnreg": None}


def _patched(*a, **kw):
    grid, args, kwargs = _args(*a, **kw)
    if FORM["maxnreg"] and kwargs.get("HEAD_DIM", 0) <= 64:
        kwargs = dict(kwargs, maxnreg=FORM["maxnreg"])
    return grid, args, kwargs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--out", default="out")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    triton_fwd.varlen_launch_args = _patched
    g = torch.Generator(device="cuda").manual_seed(36)
    res = {"device": torch.cuda.get_device_name(), "rows": []}
    forms = {"default": None, "maxnreg128": 128}
    for b, n in SHAPES:
        q, kc, vc, lens = decode_case(b, n, 64, g)
        nbytes = 2 * kc.numel() * kc.element_size()

        def fn():
            return dhpfa.flash_attn_with_kvcache(q, kc, vc, cache_seqlens=lens)

        def setup(form):
            FORM["maxnreg"] = forms[form]
            api._PLANS.clear()
            dispatch.clear_launchers()
        outs, regs = {}, {}
        for form in forms:
            setup(form)
            outs[form] = fn()
            fn()
            for p in api._PLANS.values():
                launcher = getattr(p, "launcher", None)
                k = getattr(getattr(launcher, "first", launcher), "kernel", None)
                if isinstance(p, api._VarlenPlan) and k is not None:
                    regs[form] = k.n_regs
        times = interleaved_graph_ms(forms, setup, fn, a.rounds)
        x = statistics.median([t0 / t1 for t0, t1 in zip(times["default"], times["maxnreg128"])])
        same = torch.equal(outs["default"], outs["maxnreg128"])
        row = dict(b=b, keys=n, x=x, bitwise_equal=same, regs=regs,
                   **{f + "_us": statistics.median(ts) * 1000 for f, ts in times.items()})
        res["rows"].append(row)
        print(f"D=64 B={b} keys={n} default {row['default_us']:7.1f} us ({nbytes / row['default_us'] / 1e6:.2f} TB/s) "
              f"maxnreg128 {row['maxnreg128_us']:7.1f} us ({nbytes / row['maxnreg128_us'] / 1e6:.2f})  x{x:.3f} "
              f"regs {regs} bitwise {same}", flush=True)
        del kc, vc
    setup("default")
    with open(os.path.join(a.out, "maxnreg_ab.json"), "w") as f:
        json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
