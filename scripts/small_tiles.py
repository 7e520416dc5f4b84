"""Small shapes on the device: Triton tile configurations in CUDA-graph replay (random order per round,
as scripts/ab_sm90.py), beside the API's choice and the SDPA backends, each checked against float64 with a
poisoned output first. Smaller query tiles give more programs where B * H * S / 64 is below the SM count.

    PYTHONPATH=src python3 scripts/small_tiles.py --out DIR [--shapes 1,8,512,64;4,16,1024,64]
"""
import argparse
import functools
import importlib
import json
import os
import statistics

import torch

from dhpfa import api
from dhpfa.kernels import dispatch, variants
from dhpfa.measure import bench
from dhpfa.measure.bench import interleaved_ms
from sm90_check import check  # scripts/: one launch on poisoned outputs against float64

T = variants.TileConfig
PRESETS = {
    # small shapes: smaller query tiles (more programs), pointer loads or TMA
    "small": [("attn_fwd_tma", T(64, 64, 4, 3)), ("attn_fwd", T(64, 64, 4, 3)), ("attn_fwd_tma", T(64, 32, 4, 3)),
              ("attn_fwd_tma", T(32, 64, 4, 3)), ("attn_fwd", T(32, 64, 4, 3)), ("attn_fwd_tma", T(32, 32, 2, 3)),
              ("attn_fwd_tma", T(32, 64, 2, 3)), ("attn_fwd_tma", T(16, 64, 1, 3)), ("attn_fwd", T(16, 64, 1, 3))],
    # D=64 grid cells: the shipped candidates (Triton short and long tiles, Gluon two and three consumers)
    "d64": [("attn_fwd_tma", T(64, 64, 4, 3)), ("attn_fwd", T(64, 64, 4, 3)), ("attn_fwd", T(128, 64, 8, 3)),
            ("attn_fwd_sm90_ws", T(128, 128, 4, 2, split=2, pingpong=True, persistent=True)),
            ("attn_fwd_sm90_ws", T(192, 128, 4, 2, split=3, persistent=True))],
    # grids of few programs (<= 1 per SM): fewer, longer key blocks shorten each program's serial loop
    "tiny": [("attn_fwd", T(64, 64, 4, 3)), ("attn_fwd", T(64, 64, 4, 2)), ("attn_fwd", T(64, 128, 4, 2)),
             ("attn_fwd", T(64, 128, 8, 2)), ("attn_fwd", T(64, 256, 8, 2)), ("attn_fwd", T(64, 256, 8, 1)),
             ("attn_fwd_tma", T(64, 128, 8, 2)), ("attn_fwd_tma", T(64, 64, 4, 3))],
    # short cells (S <= 1K): larger key blocks and query tiles of the Triton kernels beside the Gluon choices
    "short": [("attn_fwd_tma", T(64, 64, 4, 3)), ("attn_fwd_tma", T(64, 128, 4, 3)), ("attn_fwd_tma", T(64, 128, 4, 2)),
              ("attn_fwd_tma", T(128, 64, 8, 3)), ("attn_fwd_tma", T(128, 128, 8, 2)), ("attn_fwd", T(64, 128, 4, 3)),
              ("attn_fwd_sm90_ws", T(128, 128, 4, 2, split=2, pingpong=True, persistent=True)),
              ("attn_fwd_sm90_ws", T(128, 64, 4, 3, split=2, pingpong=True, persistent=True))],
    # grids of few programs at D=128 / 256 (entries with a third item run only at those head dims)
    "tiny_wide": [("attn_fwd", T(64, 64, 4, 3), (128,)), ("attn_fwd_tma", T(64, 64, 4, 3), (128,)),
                  ("attn_fwd", T(64, 128, 4, 2), (128,)), ("attn_fwd_sm90_ws", T(64, 64, 4, 3), (128,)),
                  ("attn_fwd_sm90_ws", T(128, 128, 4, 2, split=2, pingpong=True, persistent=True), (128,)),
                  ("attn_fwd", T(64, 32, 4, 3), (256,)), ("attn_fwd", T(64, 64, 4, 2), (256,)),
                  ("attn_fwd_tma", T(64, 32, 4, 3), (256,)), ("attn_fwd_sm90_ws", T(64, 64, 4, 2), (256,)),
                  ("attn_fwd_sm90_ws", T(128, 64, 4, 2, split=2, pingpong=True, persistent=True), (256,))],
    # grid cells at D=64 / 128: the Gluon kernel with one consumer warpgroup on 64-row tiles (the D=128 few-
    # program winner of session 7 run 1) beside the shipped short tiles
    "x1": [("attn_fwd_tma", T(64, 64, 4, 3), (64, 128)), ("attn_fwd_sm90_ws", T(64, 64, 4, 3), (64, 128)),
           ("attn_fwd_sm90_ws", T(64, 64, 4, 2), (64, 128)), ("attn_fwd_sm90_ws", T(64, 128, 4, 2), (64, 128)),
           ("attn_fwd_sm90_ws", T(64, 128, 4, 3), (64,)),
           ("attn_fwd_sm90_ws", T(64, 128, 4, 2, persistent=True), (64, 128))],
    # D=64 short cells: the Gluon kernel with 64-key blocks (two consumers with and without turns, three)
    "d64short": [("attn_fwd_tma", T(64, 64, 4, 3), (64,)),
                 ("attn_fwd_sm90_ws", T(128, 64, 4, 3, split=2, pingpong=True, persistent=True), (64,)),
                 ("attn_fwd_sm90_ws", T(128, 64, 4, 2, split=2, pingpong=True, persistent=True), (64,)),
                 ("attn_fwd_sm90_ws", T(128, 64, 4, 3, split=2, persistent=True), (64,)),
                 ("attn_fwd_sm90_ws", T(192, 64, 4, 3, split=3, persistent=True), (64,)),
                 ("attn_fwd_sm90_ws", T(192, 128, 4, 2, split=3, persistent=True), (64,))],
    # session 17: (1,8,512,64) (issue 5's small shape), 256-key blocks (two steps of each program's chain at 512 keys)
    # beside the shipped 128-key one-consumer build (with the PV GEMM beside the softmax, which spills at 256 keys)
    "n256": [("attn_fwd_sm90_ws", T(64, 128, 4, 2, pv_overlap=True), (64,)), ("attn_fwd_sm90_ws", T(64, 256, 4, 2), (64,)),
             ("attn_fwd_sm90_ws", T(64, 256, 4, 1), (64,)), ("attn_fwd_sm90_ws", T(64, 128, 4, 2), (64,))],
    # D=64 S=512 grid cell (issue 2's last cell under 1.5x FA2): stages and warps of the 64x64 Triton tiles
    "d64s512": [("attn_fwd_tma", T(64, 64, 4, 2), (64,)), ("attn_fwd_tma", T(64, 64, 4, 4), (64,)),
                ("attn_fwd_tma", T(64, 64, 8, 3), (64,)), ("attn_fwd_tma", T(64, 32, 4, 4), (64,)),
                ("attn_fwd", T(64, 64, 4, 2), (64,)), ("attn_fwd", T(64, 64, 4, 4), (64,))],
    # session 11: (1,8,512,64), the Gluon kernel's one-consumer 64-row tiles (shipped at D=128) beside the shipped
    # D=64 pointer-load tiles
    "x1d64": [("attn_fwd", T(64, 64, 4, 3), (64,)), ("attn_fwd_sm90_ws", T(64, 64, 4, 3), (64,)),
              ("attn_fwd_sm90_ws", T(64, 64, 4, 2), (64,)), ("attn_fwd_sm90_ws", T(64, 128, 4, 2), (64,)),
              ("attn_fwd_sm90_ws", T(64, 128, 4, 3), (64,)), ("attn_fwd_sm90_ws", T(64, 64, 4, 4), (64,))],
    # ... and at D=128 (the shipped 64-key tiles beside 128-key blocks)
    "x1d128": [("attn_fwd_sm90_ws", T(64, 64, 4, 3), (128,)), ("attn_fwd_sm90_ws", T(64, 128, 4, 2), (128,)),
               ("attn_fwd_sm90_ws", T(64, 128, 4, 3), (128,))],
    # few-program grids: two consumer warpgroups split one 64-row tile's key blocks (SPLIT_K; stages are
    # slots per consumer, each with a sub-ring of its own), beside the shipped few-program tiles
    "splitk": [("attn_fwd", T(64, 64, 4, 3), (64,)), ("attn_fwd_sm90_ws", T(64, 64, 4, 3), (128,)),
               ("attn_fwd_tma", T(64, 64, 4, 3), (128,)), ("attn_fwd_sm90_ws", T(64, 64, 4, 2), (256,)),
               ("attn_fwd_tma", T(64, 32, 4, 3), (256,)),
               ("attn_fwd_sm90_ws", T(64, 64, 4, 3, split=2, split_k=True), (64,)),
               ("attn_fwd_sm90_ws", T(64, 64, 4, 2, split=2, split_k=True), (64, 128)),
               ("attn_fwd_sm90_ws", T(64, 64, 4, 1, split=2, split_k=True), (64, 128, 256)),
               ("attn_fwd_sm90_ws", T(64, 128, 4, 1, split=2, split_k=True), (64, 128))],
    # session 12: few-program grids, two programs per 64-row tile with half of its key blocks each (SPLIT_KV),
    # beside the shipped few-program tiles
    "splitkv": [("attn_fwd", T(64, 64, 4, 3), (64,)), ("attn_fwd_sm90_ws", T(64, 64, 4, 3), (128,)),
                ("attn_fwd_sm90_ws", T(64, 128, 4, 2), (64, 128)),
                ("attn_fwd_sm90_ws", T(64, 128, 4, 2, split_kv=2), (64, 128)),
                ("attn_fwd_sm90_ws", T(64, 128, 4, 2, split_kv=4), (64, 128)),
                ("attn_fwd_sm90_ws", T(64, 64, 4, 3, split_kv=2), (64, 128)),
                ("attn_fwd_sm90_ws", T(64, 64, 4, 2, split_kv=2), (64, 128))],
    # session 13: the shipped one-consumer few-program builds with and without each softmax beside the previous
    # block's PV GEMM (pv_overlap)
    "ov": [("attn_fwd", T(64, 64, 4, 3), (64,)),
           ("attn_fwd_sm90_ws", T(64, 128, 4, 2), (64, 128)),
           ("attn_fwd_sm90_ws", T(64, 128, 4, 2, pv_overlap=True), (64, 128)),
           ("attn_fwd_sm90_ws", T(64, 64, 4, 3), (128,)),
           ("attn_fwd_sm90_ws", T(64, 64, 4, 3, pv_overlap=True), (64, 128)),
           ("attn_fwd_sm90_ws", T(64, 64, 4, 2), (256,)),
           ("attn_fwd_sm90_ws", T(64, 64, 4, 2, pv_overlap=True), (256,))],
    # session 42: (1,8,512,64) with two consumer warpgroups splitting each tile's keys (SPLIT_K) on 128-key blocks, with
    # and without the softmax beside the PV GEMM, beside the shipped split-key build (64-key) and the API's one-consumer
    # build there
    "skn128": [("attn_fwd_sm90_ws", T(64, 128, 4, 2, pv_overlap=True), (64, 128)),
               ("attn_fwd_sm90_ws", T(64, 64, 4, 2, split=2, split_k=True), (64, 128)),
               ("attn_fwd_sm90_ws", T(64, 128, 4, 2, split=2, split_k=True), (64,)),
               ("attn_fwd_sm90_ws", T(64, 128, 4, 2, split=2, split_k=True, pv_overlap=True), (64,)),
               ("attn_fwd_sm90_ws", T(64, 128, 4, 1, split=2, split_k=True, pv_overlap=True), (128,)),
               ("attn_fwd_sm90_ws", T(64, 64, 4, 3, split=2, split_k=True, pv_overlap=True), (64,))],
}


def variant_fn(variant, shape, causal_offset=None):
    """fn(q, k, v, causal) on (B, H, S, D) inputs of `shape`, writing one output buffer (no allocation
    inside the timed graphs). causal_offset: None aligns a causal mask bottom-right (seq_k - seq_q, as
    flash_attn_func), 0 top-left (as SDPA's is_causal)."""
    b, h, s, d = shape
    out = torch.empty((b, s, h, d), device="cuda", dtype=torch.bfloat16)
    lse = torch.empty((b, h, s), device="cuda", dtype=torch.float32)

    def fn(q, k, v, causal):
        dispatch.launch(variant, q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), out, lse, d ** -0.5,
                        causal, k.shape[2] - q.shape[2] if causal_offset is None else causal_offset)
        return out.transpose(1, 2)
    return fn


def patched_call(call, obj, name, value, clear_launchers=False):
    """`call` (fn(q, k, v, causal) through the API) with obj.name (obj[name] where obj is a dict) set to `value` for the
    call: the API's plans are made afresh inside and dropped after (clear_launchers: dispatch's cached launchers too,
    where the patch changes the kernel they hold), so the API's own calls keep theirs. In graph replay only the
    captured launch is timed."""
    get, put = (obj.__getitem__, obj.__setitem__) if isinstance(obj, dict) else \
        (lambda n: getattr(obj, n), lambda n, v: setattr(obj, n, v))

    def forget():
        api._PLANS.clear()
        if clear_launchers:
            dispatch.clear_launchers()

    def fn(q, k, v, causal):
        saved = get(name)
        put(name, value)
        forget()
        try:
            return call(q, k, v, causal)
        finally:
            names = sorted({p.variant.name for p in api._PLANS.values() if p.variant is not None})
            if names:  # (the innermost patch sees the plans; the outer ones keep its record)
                PATCHED_VARIANTS[:] = names
            put(name, saved)
            forget()
    return fn


PATCHED_VARIANTS = []  # the variants the last patched_call planned (rule_check.py's record of the rule before)


def module_variant(module, old, new, name):
    """`module` with the text `old` (found exactly once in its source) replaced by `new`, written next to it as
    _ab_<name>.py (so that its relative imports work; git ignores those files) and imported: the other build of an A/B
    run in one process (scripts/spec_ab.py, tma_one_loop_ab.py, split_radix_ab.py)."""
    src = open(module.__file__).read()
    assert src.count(old) == 1, f"{old!r} is not in {module.__file__} exactly once"
    path = os.path.join(os.path.dirname(module.__file__), f"_ab_{name}.py")
    with open(path, "w") as f:
        f.write(src.replace(old, new))
    return importlib.import_module(f"{module.__package__}._ab_{name}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out")
    ap.add_argument("--shapes", default="1,8,512,64;4,16,1024,64", help="B,H,S,D;... (grid cells: B = 16384 / S, "
                    "H = 2048 / D)")
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--preset", default="small", choices=sorted(PRESETS))
    ap.add_argument("--causal", default="0,1", help="causal flags to run: 0, 1 or 0,1")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    peers = bench.peer_kernels()
    res = []
    for spec in args.shapes.split(";"):
        b, h, s, d = (int(x) for x in spec.split(","))
        for causal in (bool(int(c)) for c in args.causal.split(",")):
            case = bench.Case(b, h, s, d, causal)
            kernels = {"dhpfa": peers["dhpfa"], "sdpa_flash": peers["sdpa_flash"], "sdpa_cudnn": peers["sdpa_cudnn"]}
            errs = {}  # (worst relative error against float64, NaN or LSE mismatch): sm90_check.check
            for kern, cfg, *dims in PRESETS[args.preset]:
                if dims and d not in dims[0]:
                    continue
                v = variants.Variant(kern, cfg, torch.bfloat16, d, causal)
                kernels[v.name] = variant_fn(v, (b, h, s, d))
                errs[v.name] = check(b, s, s, h, h, d, causal, torch.bfloat16, {},
                                     launch=functools.partial(dispatch.launch, v))
            sets = bench.make_inputs(case, 4)
            times = interleaved_ms(kernels, sets, causal, rounds=args.rounds, batch_ms=5.0, graph=True)
            us = {n: statistics.median(t) * 1000 for n, t in times.items()}
            ratio = {n: statistics.median(a / b for a, b in zip(times["dhpfa"], t)) for n, t in times.items()}
            res.append(dict(shape=[b, h, s, d], causal=causal, us=us, speedup_vs_dhpfa=ratio, rel_err=errs))
            print(f"== {spec} causal={causal}")
            for n in sorted(us, key=us.get):
                e = errs.get(n)
                print(f"  {n:<44} {us[n]:7.2f} us  x{ratio[n]:.3f}" + (f"  err {e[0]:.1e}{' BAD' if e[1] else ''}"
                                                                         if e else ""), flush=True)
    with open(os.path.join(args.out, f"small_tiles_{args.preset}.json"), "w") as f:
        json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
