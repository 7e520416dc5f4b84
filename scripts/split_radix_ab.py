"""Session 24: SPLIT_KV's meetings of up to 8 programs (sm90_fwd.SPLIT_RADIX: 8 or more parts meet in at most two
rounds, the last to arrive at each merging its group's slots) against the binary tree of pairs (log2(parts) rounds),
through the API in CUDA-graph replay, interleaved rounds (xR: median of per-round ratios tree / radix, > 1: the
radix meetings are faster). The tree is the working tree's sm90_fwd.py with the switch off, written next to it as
_ab_sm90_fwd_tree.py and swapped in for its calls (as scripts/spec_ab.py does). Each output is checked against float64
(sampled rows), and the radix build's output for bitwise repeatability over 20 calls.

    git apply docs/experiments/session24_split_radix.diff   (the switch; reverted after run 6)
    PYTHONPATH=src:scripts python3 scripts/split_radix_ab.py --out DIR [--shapes B,H,Sq,Sk,D[,H_kv][,c];...]

Run 6 (H200): the radix meetings ran x0.73-0.96 of the tree (slower) wherever 8 or more parts met, and their flag
words were not reset, so CUDA-graph replays (the same workspace and nonce) never merged: 168 GPU tests failed.
"""
import argparse
import json
import os
import statistics

import torch

import dhpfa
from dhpfa.kernels import sm90_fwd
from dhpfa.measure.bench import interleaved_ms, peer_kernels
from dhpfa.reference import attention_ref_rows
from small_tiles import module_variant, patched_call  # scripts/

SHAPES = ("1,32,1,8192,96,8;1,16,1,8192,192,4;1,8,1,32768,192,1;1,32,1,8192,128,8;1,64,1,32768,128,8;"
          "1,8,1,16384,64,1;1,32,1,32768,128,8;2,32,1,16384,128,8;1,8,1,65536,128,1;1,4,64,16384,128;"
          "1,2,300,32768,128;1,32,1,4096,128,8")


def tree_module():
    return module_variant(sm90_fwd, 'SPLIT_RADIX = gl.constexpr(os.environ.get("DHPFA_SPLIT_RADIX", "1") == "1")',
                          "SPLIT_RADIX = gl.constexpr(False)", "sm90_fwd_tree")


def with_kernel(fn_kernel):
    return patched_call(lambda q, k, v, causal: dhpfa.flash_attn_func(q, k, v, causal=causal), sm90_fwd,
                        "attn_fwd_sm90_ws", fn_kernel, clear_launchers=True)


def rel_err(out, q, k, v, causal):
    b, sq, h, d = q.shape
    rows = torch.unique(torch.linspace(0, sq - 1, min(sq, 64), device=q.device).long())
    worst = 0.0
    for bb, hh in {(0, 0), (b - 1, h - 1), (0, h // 2)}:
        ro, _ = attention_ref_rows(q, k, v, d ** -0.5, k.shape[1] - sq if causal else None, bb, hh, rows)
        worst = max(worst, float((out[bb, rows, hh].double() - ro).norm() / ro.norm()))
    return worst


def shape_inputs(spec):
    """(causal, three input sets (q, k, v) in (B, S, H, D), bf16) of a shape "B,H,Sq,Sk,D[,H_kv][,c]"."""
    f = spec.split(",")
    causal = f[-1] == "c"
    f = [int(x) for x in (f[:-1] if causal else f)]
    b, h, sq, sk, d = f[:5]
    hk = f[5] if len(f) > 5 else h
    g = torch.Generator(device="cuda").manual_seed(b + h + sq + sk + d)
    return causal, [tuple(torch.randn(b, n, hh, d, device="cuda", dtype=torch.bfloat16, generator=g)
                          for n, hh in ((sq, h), (sk, hk), (sk, hk))) for _ in range(3)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out")
    ap.add_argument("--shapes", default=SHAPES)
    ap.add_argument("--rounds", type=int, default=11)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    tree = tree_module()
    peers = peer_kernels(gqa=True)
    kernels = {"radix": with_kernel(sm90_fwd.attn_fwd_sm90_ws), "tree": with_kernel(tree.attn_fwd_sm90_ws)}
    rows, ok = [], True
    for s in args.shapes.split(";"):
        causal, sets = shape_inputs(s)
        outs = {n: kernels[n](*sets[0], causal) for n in kernels}
        errs = {n: rel_err(o, *sets[0], causal) for n, o in outs.items()}
        reps = all(torch.equal(kernels["radix"](*sets[0], causal), outs["radix"]) for _ in range(20))
        good = all(e < 1e-2 for e in errs.values()) and reps and not outs["radix"].isnan().any()
        ok &= good
        sdpa = {"flash": peers["sdpa_flash"], "cudnn": peers["sdpa_cudnn"]}
        timed = dict(kernels)
        for n, fn in sdpa.items():  # SDPA takes (B, H, S, D)
            timed[n] = (lambda fn: lambda q, k, v, c: fn(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2),
                                                             c))(fn)
        times = interleaved_ms(timed, sets, causal, rounds=args.rounds, batch_ms=25.0, graph=True)
        us = {n: statistics.median(t) * 1e3 for n, t in times.items()}
        x = statistics.median(t / r for r, t in zip(times["radix"], times["tree"]))
        rows.append(dict(shape=s, us=us, xR=x, rel_err=errs, repeatable=reps))
        print(f"({s}) radix {us['radix']:.1f} us  tree {us['tree']:.1f}  flash {us['flash']:.1f}  cudnn "
              f"{us['cudnn']:.1f}  xR {x:.3f}  err {errs['radix']:.1e} / {errs['tree']:.1e}  repeatable {reps}"
              + ("" if good else "  FAIL"), flush=True)
        del sets, outs
        torch.cuda.empty_cache()
    json.dump(rows, open(os.path.join(args.out, "split_radix_ab.json"), "w"), indent=1)
    print("correctness:", "all OK" if ok else "FAILURES")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
