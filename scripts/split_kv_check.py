"""Device check of the Gluon kernel's cross-program key split (sm90_fwd SPLIT_KV, TileConfig.split_kv): each
64-row tile runs as two (or four) programs with a part of its key blocks each, combined in pairs by the second
to arrive.

1. float64 on poisoned outputs over odd shapes (one key block: the later parts have none; GQA; seq_q != seq_k),
   bf16 and fp16;
2. bitwise determinism: 200 eager calls and 200 CUDA-graph replays (the flags reset themselves) against the
   first call's output and LSE, on one input;
3. graph-replay timing beside the shipped few-program tiles: scripts/small_tiles.py --preset splitkv.
--builds ov (session 13): the one-consumer builds with each softmax beside the previous PV GEMM (pv_overlap), the
split ones among them, causal and not; --builds up: the causal split-key build with one tile per program (unpaired);
--builds tree (session 14): 8 and 16 programs per tile (three and four levels of meetings), causal and not;
--builds splits: 2, 4, 8 and 16 programs per tile, causal and not (after SPLIT_KV_ROWS became the default);
--builds wide: 32 and 64 (five and six levels); --builds d256 (session 15): the D=256 builds (64x64 tiles, 2-64 parts,
whose meetings merge from the workspace: sm90_fwd WS_MERGE), on D=256 shapes; --builds d32 / d96 / d192 (session 15):
the D=64-128 builds at D=32 and 96, D=256's at 192 (D=96 / 192 run as 128 / 256 with zero-filled columns).

    PYTHONPATH=src:scripts python3 scripts/split_kv_check.py --out DIR [--builds NAME] [--parts 2,8,..]
      NAME: split|ov|up|tree|splits|wide|d32|d96|d192|d256
"""
import argparse
import functools
import itertools
import json
import os

import torch

from dhpfa.kernels import dispatch, sm90_fwd, variants
from sm90_check import check

T = variants.TileConfig
DIM_BUILDS = (32, 96, 192, 256)  # --builds d32 .. d256
BUILDS = {"split": [T(64, 128, 4, 2, split_kv=2), T(64, 128, 4, 2, split_kv=4)],
          "ov": [T(64, 128, 4, 2, pv_overlap=True), T(64, 64, 4, 3, pv_overlap=True),
                 T(64, 128, 4, 2, split_kv=2, pv_overlap=True), T(64, 128, 4, 2, split_kv=4, pv_overlap=True),
                 T(64, 64, 4, 2, split=2, split_k=True, pv_overlap=True)],
          "up": [T(64, 64, 4, 2, split=2, split_k=True, unpaired=True)],
          "tree": [T(64, 128, 4, 2, split_kv=8, pv_overlap=True), T(64, 128, 4, 2, split_kv=16, pv_overlap=True)],
          "splits": [T(64, 128, 4, 2, split_kv=n, pv_overlap=True) for n in (2, 4, 8, 16)],
          "wide": [T(64, 128, 4, 2, split_kv=n, pv_overlap=True) for n in (32, 64)],
          # --builds dN: the shipped split builds of head dim N (variants._split_kv_tables), every part count
          **{f"d{d}": [variants._split_kv_tables(n)[(d, False)][1] for n in sm90_fwd.SPLIT_KV_PARTS]
             for d in DIM_BUILDS}}
SHAPES = [  # (b, sq, sk, h, hk, d)
    (1, 512, 512, 8, 8, 64), (1, 512, 512, 8, 8, 128), (2, 333, 589, 3, 3, 64), (2, 333, 589, 3, 1, 128),
    (1, 100, 100, 4, 4, 64), (1, 64, 2048, 8, 2, 128), (1, 1, 777, 2, 2, 64), (3, 130, 1025, 2, 2, 128)]
# --builds dN: one key block (later parts have none), GQA, seq_q != seq_k, odd lengths, and enough keys for every
# one of 64 parts to have blocks
SHAPES_DN = [(1, 512, 512, 4, 4), (2, 333, 589, 3, 1), (1, 1, 777, 2, 2), (3, 130, 1025, 2, 2), (1, 100, 100, 2, 2),
             (1, 64, 4096, 4, 1), (1, 4, 8195, 2, 1)]  # (b, sq, sk, h, hk) at D=N


def determinism(cfg, d, dtype, calls=200, causal=False):
    """(eager calls bitwise equal to the first, graph replays bitwise equal) out of `calls` each."""
    v = variants.Variant("attn_fwd_sm90_ws", cfg, dtype, d, causal)
    g = torch.Generator(device="cuda").manual_seed(d)
    q, k, vv = (torch.randn(1, 512, 8, d, device="cuda", dtype=dtype, generator=g) for _ in range(3))
    out = torch.full_like(q, float("nan"))
    lse = torch.full((1, 8, 512), float("nan"), device="cuda")

    def call():
        dispatch.launch(v, q, k, vv, out, lse, d ** -0.5, causal, 0)
    call()
    torch.cuda.synchronize()
    ref_o, ref_l = out.clone(), lse.clone()
    eager = 0
    for _ in range(calls):
        out.fill_(float("nan"))
        call()
        eager += int(torch.equal(out, ref_o) and torch.equal(lse, ref_l))
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        call()
    torch.cuda.current_stream().wait_stream(s)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        call()
    replays = 0
    for _ in range(calls):
        out.fill_(float("nan"))
        graph.replay()
        replays += int(torch.equal(out, ref_o) and torch.equal(lse, ref_l))
    torch.cuda.synchronize()
    return eager, replays


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out")
    ap.add_argument("--builds", default="split", choices=sorted(BUILDS))
    ap.add_argument("--parts", default="", help="comma-separated: only the builds of these programs per tile")
    args = ap.parse_args()
    causals = {"split": (False,), "up": (True,)}.get(args.builds, (False, True))
    dn = int(args.builds[1:]) if args.builds in {f"d{d}" for d in DIM_BUILDS} else None
    shapes, dims = ([shape + (dn,) for shape in SHAPES_DN], (dn,)) if dn else (SHAPES, (64, 128))
    os.makedirs(args.out, exist_ok=True)
    res = dict(correctness=[], determinism=[])
    only = {int(n) for n in args.parts.split(",") if n}
    for cfg in [c for c in BUILDS[args.builds] if not only or c.split_kv in only]:
        for dtype, (b, sq, sk, h, hk, d), causal in itertools.product((torch.bfloat16, torch.float16), shapes, causals):
            v = variants.Variant("attn_fwd_sm90_ws", cfg, dtype, d, causal)
            err, bad = check(b, sq, sk, h, hk, d, causal, dtype, {}, launch=functools.partial(dispatch.launch, v))
            ok = err < (1e-2 if dtype == torch.bfloat16 else 2e-3) and not bad
            res["correctness"].append(dict(build=v.name, shape=[b, sq, sk, h, hk, d], rel_err=err, bad=bad, ok=ok))
            print(f"{v.name:<52} {(b, sq, sk, h, hk, d)} err {err:.2e} {'OK' if ok else 'FAIL'}", flush=True)
        for d, causal in itertools.product(dims, causals):
            eager, replays = determinism(cfg, d, torch.bfloat16, causal=causal)
            res["determinism"].append(dict(build=cfg.label(), d=d, causal=causal, eager_equal=eager,
                                           replays_equal=replays, of=200))
            print(f"determinism {cfg.label()} d{d} causal={causal}: eager {eager}/200, graph replays {replays}/200",
                  flush=True)
    with open(os.path.join(args.out, f"split_kv_check_{args.builds}.json"), "w") as f:
        json.dump(res, f, indent=1)
    fails = sum(not r["ok"] for r in res["correctness"]) + sum(r["eager_equal"] + r["replays_equal"] != 400
                                                               for r in res["determinism"])
    print("FAILURES", fails)


if __name__ == "__main__":
    main()
