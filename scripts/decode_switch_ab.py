"""A/B of a module-level switch on decode steps through flash_attn_with_kvcache (GQA 32 / 8, D=256 16 / 8; full
caches; the API's split rule), CUDA-graph replay, both values in each of --rounds rounds in random order; call plans and
kept launchers cleared at each switch. x = time with the first value / time with the second; outputs compared bitwise.

    PYTHONPATH=src:scripts python3 scripts/decode_switch_ab.py --switch dhpfa.kernels.triton_fwd.VARLEN_SPLIT_UNMASKED \
        --values False,True [--causal] [--rounds 7] [--out DIR]
"""
import argparse
import ast
import importlib
import json
import os
import statistics

import torch

import dhpfa
from decode_cases import decode_case, interleaved_graph_ms
from dhpfa import api
from dhpfa.kernels import dispatch

SHAPES = ((1, 32768), (4, 16384), (8, 4096), (16, 8192), (32, 4096), (64, 2048))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--switch", required=True, help="module.NAME")
    ap.add_argument("--values", default="False,True")
    ap.add_argument("--d", default="64,128,256")
    ap.add_argument("--causal", action="store_true")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--out", default="out")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    mod_name, name = a.switch.rsplit(".", 1)
    mod = importlib.import_module(mod_name)
    values = [ast.literal_eval(x) for x in a.values.split(",")]
    shipped = getattr(mod, name)
    g = torch.Generator(device="cuda").manual_seed(36)
    res = {"device": torch.cuda.get_device_name(), "switch": a.switch, "values": values, "causal": a.causal, "rows": []}
    for d in (int(x) for x in a.d.split(",")):
        for b, n in SHAPES:
            q, kc, vc, lens = decode_case(b, n, d, g)
            nbytes = 2 * kc.numel() * kc.element_size()

            def fn():
                return dhpfa.flash_attn_with_kvcache(q, kc, vc, cache_seqlens=lens, causal=a.causal)

            def setup(i):
                setattr(mod, name, values[i])
                api._PLANS.clear()
                dispatch.clear_launchers()
            outs = {}
            for i in range(len(values)):
                setup(i)
                outs[i] = fn()
            times = interleaved_graph_ms(range(len(values)), setup, fn, a.rounds)
            x = statistics.median([t0 / t1 for t0, t1 in zip(times[0], times[1])])
            us = [statistics.median(times[i]) * 1000 for i in times]
            same = torch.equal(outs[0], outs[1])
            res["rows"].append(dict(d=d, b=b, keys=n, us=us, x=x, bitwise_equal=same))
            print(f"D={d} B={b} keys={n} " + "  ".join(f"{values[i]}: {us[i]:.1f} us ({nbytes / us[i] / 1e6:.2f} TB/s)"
                                                       for i in times) + f"  x{x:.3f} bitwise {same}", flush=True)
            del kc, vc
    setattr(mod, name, shipped)
    with open(os.path.join(a.out, f"switch_ab_{name}{'_causal' if a.causal else ''}.json"), "w") as f:
        json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
