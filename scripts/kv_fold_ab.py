"""Session 26: SPLIT_KV builds of 8-64 parts folded into one binary (sm90_fwd.SPLIT_KV_FOLD: the part count a runtime
argument) against one binary per part count (the working tree's sm90_fwd with SPLIT_KV_FOLD = 128, written next to it
as _ab_sm90_fwd_unfolded.py; its kernel and launch_args are swapped in for its calls), through the API in CUDA-graph
replay, interleaved rounds (xF: median of per-round ratios unfolded / folded time, > 1: the folded build is faster).
Each output is checked against float64 (sampled rows), and the folded build's for bitwise repeatability over 20 calls.
Shapes: B,H,Sq,Sk,D[,H_kv][,c] (scripts/split_radix_ab.py's decode-like set: 2 to 64 parts).

    git apply docs/experiments/session26_kv_fold.diff   (the fold; reverted after run 4)
    PYTHONPATH=src:scripts python3 scripts/kv_fold_ab.py --out DIR [--shapes ...] [--rounds 11]

Run 4 (H200): the folded build ran x0.917-0.990 of one binary per part count wherever 8 or more parts met (x1.00 where
fewer did), so it was reverted; docs/perf-log.md, session 26.
"""
import argparse
import json
import os
import statistics

import torch

import dhpfa
from dhpfa import api
from dhpfa.kernels import sm90_fwd
from dhpfa.measure.bench import interleaved_ms, peer_kernels
from small_tiles import module_variant, patched_call  # scripts/
from split_radix_ab import SHAPES, rel_err, shape_inputs, with_kernel  # scripts/


def unfolded_module():
    return module_variant(sm90_fwd, "SPLIT_KV_FOLD = gl.constexpr(8)", "SPLIT_KV_FOLD = gl.constexpr(128)",
                          "sm90_fwd_unfolded")


def through_api(mod):
    """The API's call with mod's kernel and launch arguments in sm90_fwd's place (the tree's own when mod is it)."""
    call = with_kernel(mod.attn_fwd_sm90_ws)
    return call if mod is sm90_fwd else patched_call(call, sm90_fwd, "launch_args", mod.launch_args)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out")
    ap.add_argument("--shapes", default=SHAPES)
    ap.add_argument("--rounds", type=int, default=11)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    peers = peer_kernels(gqa=True)
    kernels = {"fold": through_api(sm90_fwd), "unfold": through_api(unfolded_module())}
    rows, ok = [], True
    for s in args.shapes.split(";"):
        causal, sets = shape_inputs(s)
        api._PLANS.clear()
        dhpfa.flash_attn_func(*sets[0], causal=causal)
        plan = next(iter(api._PLANS.values()), None)
        variant = plan.variant.name if plan is not None and hasattr(plan, "variant") else "?"
        outs = {n: kernels[n](*sets[0], causal) for n in kernels}
        errs = {n: rel_err(o, *sets[0], causal) for n, o in outs.items()}
        reps = all(torch.equal(kernels["fold"](*sets[0], causal), outs["fold"]) for _ in range(20))
        same = torch.equal(outs["fold"], outs["unfold"])
        good = all(e < 1e-2 for e in errs.values()) and reps and not outs["fold"].isnan().any()
        ok &= good
        timed = dict(kernels)
        timed["cudnn"] = (lambda fn: lambda q, k, v, c: fn(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2),
                                                            c))(peers["sdpa_cudnn"])
        times = interleaved_ms(timed, sets, causal, rounds=args.rounds, batch_ms=25.0, graph=True)
        us = {n: statistics.median(t) * 1e3 for n, t in times.items()}
        x = statistics.median(u / fo for fo, u in zip(times["fold"], times["unfold"]))
        rows.append(dict(shape=s, variant=variant, us=us, xF=x, rel_err=errs, repeatable=reps, bitwise_equal=same))
        print(f"({s}) {variant.split('-')[-1]:<14} fold {us['fold']:.1f} us  unfold {us['unfold']:.1f}  cudnn "
              f"{us['cudnn']:.1f}  xF {x:.3f}  err {errs['fold']:.1e} / {errs['unfold']:.1e}  repeatable {reps}  "
              f"equal {same}" + ("" if good else "  FAIL"), flush=True)
        del sets, outs
        torch.cuda.empty_cache()
    json.dump(rows, open(os.path.join(args.out, "kv_fold_ab.json"), "w"), indent=1)
    print("correctness:", "all OK" if ok else "FAILURES")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
