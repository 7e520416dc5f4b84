"""The split decode's combine launch, A/B: the shipped tiles (variants.VARLEN_COMBINE_TILES: a few rows a program, 16
parts read in one round; VARLEN_COMBINE_TILES_FEW, 4 parts, for calls of up to 4 parts), the 16-part tiles for every
call ("parts16", session 36 calls 6-11), and one part a round on 64-row tiles ("part_by_part", attn_varlen_combine with
PARTS = 1). Until the one-pass combine (session 36, after call 6) the last was session 35's loop (two dependent loads
per part); since, it also rescales its accumulator at every part, so it is slower than session 35's loop was (call 14:
x1.5 at D=256). Decode steps through flash_attn_with_kvcache (GQA 32 / 8, D=256 16 / 8; full caches; the API's split
rule), CUDA-graph replay, every form in each of --rounds rounds in random order; x = form / shipped.

    PYTHONPATH=src:scripts python3 scripts/combine_ab.py [--rounds 7] [--out DIR]
"""
import argparse
import json
import os
import statistics

import torch

import dhpfa
from decode_cases import decode_case, interleaved_graph_ms
from dhpfa import api
from dhpfa.kernels import variants

T = variants.TileConfig
FORMS = {"shipped": (dict(variants.VARLEN_COMBINE_TILES), dict(variants.VARLEN_COMBINE_TILES_FEW)),
         "parts16": (dict(variants.VARLEN_COMBINE_TILES), dict(variants.VARLEN_COMBINE_TILES)),
         "part_by_part": ({d: T(64, 1, 4, 1) for d in variants.VARLEN_COMBINE_TILES},) * 2}
SHAPES = ((1, 32768), (4, 16384), (8, 4096), (12, 8192), (16, 8192), (32, 4096), (64, 2048), (128, 1024))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--out", default="out")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    g = torch.Generator(device="cuda").manual_seed(36)
    res = {"device": torch.cuda.get_device_name(), "rows": []}
    for d in (64, 128, 256):
        for b, n in SHAPES:
            q, kc, vc, lens = decode_case(b, n, d, g)

            def fn():
                return dhpfa.flash_attn_with_kvcache(q, kc, vc, cache_seqlens=lens)

            def setup(form):
                variants.VARLEN_COMBINE_TILES.update(FORMS[form][0])
                variants.VARLEN_COMBINE_TILES_FEW.update(FORMS[form][1])
                api._PLANS.clear()
            outs, splits = {}, None
            for form in FORMS:
                setup(form)
                outs[form] = fn().float()
                splits = sorted({p.splits for p in api._PLANS.values() if isinstance(p, api._VarlenPlan)})
            times = interleaved_graph_ms(FORMS, setup, fn, a.rounds)
            setup("shipped")
            x = {f: statistics.median([t0 / t1 for t0, t1 in zip(times[f], times["shipped"])]) for f in FORMS}
            diff = ((outs["shipped"] - outs["part_by_part"]).norm() / outs["part_by_part"].norm()).item()
            row = dict(d=d, b=b, keys=n, splits=splits, x=x, rel_diff=diff,
                       **{f + "_us": statistics.median(ts) * 1000 for f, ts in times.items()})
            res["rows"].append(row)
            print(f"D={d} B={b} keys={n} splits={splits} " + "  ".join(
                f"{f} {row[f + '_us']:7.1f} us (x{x[f]:.3f})" for f in FORMS) + f"  diff {diff:.1e}", flush=True)
            del kc, vc
    with open(os.path.join(a.out, "combine_ab.json"), "w") as f:
        json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
