"""Key splits of the portable varlen kernel's decode builds (variants.VARLEN_SPLIT_FORCE patched per round), against
the shipped rule (variants.varlen_splits): decode steps through flash_attn_with_kvcache (one query per sequence; GQA
32 / 8 heads, D=256 16 / 8; contiguous caches, full), CUDA-graph replay, every split count in each of --rounds rounds
in a fresh random order. Prints us per step, x over the rule, and the waves the split makes (programs x parts over
the SMs x the build's programs per SM, programs_per_sm: registers, shared memory, warps).

Session 36's question: decode grids run in waves of (SMs x programs per SM); a grid of 5.2 waves (D=64, B=64, 2,048
keys: 2,048 programs, 3 per SM) runs a last wave a sixth full.

    PYTHONPATH=src:scripts python3 scripts/decode_split_sweep.py [--d 64,128,256] [--splits 1,2,...] [--out DIR]
"""
import argparse
import json
import os
import statistics

import torch

import dhpfa
from decode_cases import decode_case, heads, interleaved_graph_ms
from dhpfa import api
from dhpfa.kernels import dispatch, variants

SHAPES = ((1, 32768), (4, 16384), (8, 4096), (8, 16384), (16, 8192), (32, 4096), (64, 2048), (128, 1024), (24, 3000))


def programs_per_sm(kernel, smem_per_sm=233472, regs_per_sm=65536):
    """How many programs of a compiled Triton kernel one H100 / H200 SM holds: registers (allocated per warp in units
    of 256), shared memory (the kernel's dynamic bytes plus the driver's 1 KB per block), warps (64 an SM)."""
    warps = kernel.metadata.num_warps
    regs_warp = -(-kernel.n_regs * 32 // 256) * 256
    by_regs = regs_per_sm // (regs_warp * warps)
    by_smem = smem_per_sm // (kernel.metadata.shared + 1024)
    return min(by_regs, by_smem, 64 // warps, 32)


def _launched(plans):
    for p in plans:
        if isinstance(p, api._VarlenPlan) and p.variant is not None and p.launcher is not None:
            first = getattr(p.launcher, "first", p.launcher)  # a split call's (attention, combine) pair
            return getattr(first, "kernel", None)
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--d", default="64,128,256")
    ap.add_argument("--splits", default="1,2,3,4,5,6,7,8,10,12,14,16")
    ap.add_argument("--shapes", default=";".join(f"{b},{n}" for b, n in SHAPES))
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--lengths", default="uniform", help="uniform: every cache full (N keys); random: lengths drawn "
                    "uniformly from 1..N (session 20's decode benches); onelong: one sequence of N keys, the rest N / 16")
    ap.add_argument("--out", default="out")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    g = torch.Generator(device="cuda").manual_seed(36)
    sms = dispatch.sm_count(torch.device("cuda"))
    forced = [int(s) for s in a.splits.split(",")]
    shapes = [tuple(int(x) for x in s.split(",")) for s in a.shapes.split(";")]
    res = {"device": torch.cuda.get_device_name(), "sms": sms, "lengths": a.lengths, "rows": []}
    for d in (int(x) for x in a.d.split(",")):
        hk = heads(d)[1]
        for b, n in shapes:
            q, kc, vc, _ = decode_case(b, n, d, g)
            lens = torch.full((b,), n, dtype=torch.int32)
            if a.lengths == "random":
                cpu = torch.Generator().manual_seed(b * n + d)
                lens = torch.randint(1, n + 1, (b,), generator=cpu, dtype=torch.int32)
                lens[0] = n  # max_seqlen_k is the cache's capacity either way; one sequence fills it
            elif a.lengths == "onelong":
                lens[1:] = max(1, n // 16)
            nbytes = 2 * int(lens.sum()) * hk * d * kc.element_size()  # the K / V bytes the step reads
            lens = lens.cuda()

            def fn():
                return dhpfa.flash_attn_with_kvcache(q, kc, vc, cache_seqlens=lens)
            names = ["rule"] + forced
            outs, plans = {}, {}

            def setup(nm):
                variants.VARLEN_SPLIT_FORCE = None if nm == "rule" else nm
                api._PLANS.clear()
            for nm in names:
                setup(nm)
                outs[nm] = fn()
                plans[nm] = sorted({(p.variant.name, p.splits) for p in api._PLANS.values()
                                    if isinstance(p, api._VarlenPlan) and p.variant is not None})
            times = interleaved_graph_ms(names, setup, fn, a.rounds)
            setup("rule")
            rule_splits = plans["rule"][0][1] if plans["rule"] else None
            programs = b * hk
            setup("rule")
            fn()
            fn()
            kern = _launched(api._PLANS.values())
            per_sm = programs_per_sm(kern) if kern is not None else None
            slots = sms * per_sm if per_sm else None
            for nm in names:
                x = statistics.median([t0 / t for t0, t in zip(times["rule"], times[nm])])
                us = statistics.median(times[nm]) * 1000
                diff = ((outs[nm].float() - outs["rule"].float()).norm() / outs["rule"].float().norm()).item()
                s = rule_splits if nm == "rule" else nm
                waves = programs * s / slots if slots else None
                row = dict(d=d, b=b, keys=n, splits=s, label=str(nm), us=us, tb_s=nbytes / us / 1e6, x=x,
                           rel_diff=diff, plan=plans[nm], waves=waves, programs_per_sm=per_sm,
                           regs=getattr(kern, "n_regs", None), shared=getattr(getattr(kern, "metadata", None),
                                                                               "shared", None))
                res["rows"].append(row)
                print(f"{a.lengths} D={d} B={b} keys={n} {str(nm):>4} s={s:<2} {us:8.1f} us {nbytes / us / 1e6:5.2f} TB/s "
                      f"x{x:.3f} diff {diff:.1e}" + (f" waves {waves:.2f}" if waves else ""), flush=True)
            del kc, vc
    with open(os.path.join(a.out, f"decode_split_sweep_{a.lengths}.json"), "w") as f:
        json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
