"""A/B of sm90_fwd SPLIT_KV_ROWS (launch_args(kv_rows=True)): the programs of a split tile store and load only the
tile's rows below SEQ_Q at their meetings, against the same build storing all BLOCK_M rows. Packed decode calls
(api.pack_gqa) fill 1-32 of a tile's 64 rows, so most of each meeting's 33 KB (D=128) is rows nobody reads.

1. float64 on poisoned outputs (scripts/sm90_check.check) with kv_rows for 2/4/8/16 parts, odd shapes, both dtypes;
2. graph-replay timing, interleaved rounds, of each shape's API build with and without kv_rows.

    PYTHONPATH=src:scripts python3 scripts/kv_rows_ab.py --out DIR [--rounds 9]
"""
import argparse
import itertools
import json
import os
import statistics

import torch

from dhpfa.kernels import sm90_fwd
from dhpfa.measure.bench import interleaved_ms
from dhpfa.measure.leak import random_pool
from sm90_check import check

SHAPES = [(1, 4, 4096, 8, 8, 128), (1, 32, 32768, 1, 1, 128), (2, 7, 9000, 4, 4, 64), (1, 1, 777, 2, 1, 64),
          (3, 130, 1025, 2, 2, 128), (1, 64, 2048, 8, 2, 128)]  # (b, sq, sk, h, hk, d)
TIMED = [  # (b, h, sq, sk, d, parts): packed decode grids (sq = group rows), then full tiles
    (1, 8, 4, 4096, 128, 8), (1, 8, 4, 16384, 128, 8), (1, 1, 32, 32768, 128, 16), (2, 8, 4, 8192, 128, 4),
    (1, 8, 4, 8192, 64, 8), (4, 1, 32, 8192, 64, 16), (8, 8, 4, 8192, 128, 2), (1, 8, 512, 2048, 64, 2),
    (1, 2, 512, 8192, 128, 8), (1, 4, 512, 4096, 128, 4), (1, 8, 512, 2048, 128, 2), (1, 1, 512, 16384, 64, 16)]


def tiles(parts, rows):
    return dict(warp_specialized=True, block_m=64, block_n=128, stages=2, split_kv=parts, pv_overlap=True, kv_rows=rows)


def fn_for(shape, parts, rows):
    b, h, sq, sk, d = shape
    out = torch.empty((b, sq, h, d), device="cuda", dtype=torch.bfloat16)
    lse = torch.empty((b, h, sq), device="cuda", dtype=torch.float32)

    def fn(q, k, v, causal):
        sm90_fwd.launch(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), out, lse, d ** -0.5, False, sk - sq,
                        **tiles(parts, rows))
        return out
    return fn


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out")
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--no-check", action="store_true", help="timing only")
    ap.add_argument("--timed", default="", help="indices into TIMED (comma-separated; default all)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    res = dict(correctness=[], timing=[])
    for parts, dtype, shape, causal in itertools.product((2, 4, 8, 16), (torch.bfloat16, torch.float16),
                                                         [] if args.no_check else SHAPES, (False, True)):
        b, sq, sk, h, hk, d = shape
        err, bad = check(b, sq, sk, h, hk, d, causal, dtype, tiles(parts, True))
        ok = err < (1e-2 if dtype == torch.bfloat16 else 2e-3) and not bad
        res["correctness"].append(dict(parts=parts, dtype=str(dtype), shape=shape, causal=causal, err=err, ok=ok))
        if not ok:
            print(f"FAIL kv{parts} {dtype} {shape} causal={causal}: err {err:.2e} bad={bad}", flush=True)
    if res["correctness"]:
        print("correctness:", sum(r["ok"] for r in res["correctness"]), "of", len(res["correctness"]), "OK", flush=True)
    timed = [TIMED[int(i)] for i in args.timed.split(",")] if args.timed else TIMED
    for b, h, sq, sk, d, parts in timed:
        sets = random_pool((b, h, sq, d, sk, h), torch.bfloat16, pool_size=4, seed=sk + sq)
        kernels = {"all_rows": fn_for((b, h, sq, sk, d), parts, False), "rows": fn_for((b, h, sq, sk, d), parts, True)}
        times = interleaved_ms(kernels, sets, False, rounds=args.rounds, batch_ms=5.0, graph=True)
        us = {n: statistics.median(t) * 1000 for n, t in times.items()}
        ratio = statistics.median(a / r for a, r in zip(times["all_rows"], times["rows"]))
        res["timing"].append(dict(shape=[b, h, sq, sk, d], parts=parts, us=us, rows_speedup=ratio))
        print(f"({b},{h},{sq},{sk},{d}) kv{parts}: all rows {us['all_rows']:.2f} us, rows {us['rows']:.2f} us, "
              f"x{ratio:.3f}", flush=True)
    with open(os.path.join(args.out, "kv_rows_ab.json"), "w") as f:
        json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
