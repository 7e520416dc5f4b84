"""A/B of builds under two cache states (session 29): back to back in CUDA-graph replay (as ab_sm90 and the bench time
them), and with a 256 MB write between calls that evicts L2 (its own time, measured alone in the same rounds, taken
off). ncu's isolated launch (caches flushed) read n64s3_qd 2.5% faster than n64s3 at (32,16,512,128) causal, graph
replay 2.5% slower.

    PYTHONPATH=src:scripts python3 scripts/l2_state_ab.py --configs n64s3,n64s3_qd --cases 128:512 --rounds 25
"""
import argparse
import json
import os
import statistics

import torch

from ab_sm90 import CONFIGS, launcher
from dhpfa.kernels import sm90_fwd
from dhpfa.measure import bench
from dhpfa.measure.bench import interleaved_ms
from sm90_check import gluon_fn


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out")
    ap.add_argument("--configs", default="n64s3,n64s3_qd")
    ap.add_argument("--cases", default="128:512")
    ap.add_argument("--rounds", type=int, default=25)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    peers = bench.peer_kernels()
    junk = torch.empty(256 * 2 ** 20 // 4, device="cuda", dtype=torch.float32)

    def flush(q, k, v, causal):
        junk.fill_(1.0)

    res = []
    for cell in args.cases.split(","):
        d, s = (int(x) for x in cell.split(":"))
        base = {"dhpfa": peers["dhpfa"], "sdpa_cudnn": peers["sdpa_cudnn"]}
        for c in args.configs.split(","):
            tiles = CONFIGS[c][1]
            base[c] = gluon_fn(tiles, launch=launcher(sm90_fwd, tiles))
        for causal in (True, False):
            case = bench.Case(bench.TOKENS // s, bench.HIDDEN // d, s, d, causal, "bf16")
            sets = bench.make_inputs(case, bench.n_sets_for(case))
            kernels = dict(base)
            kernels.update({f"{n}+flush": (lambda f: lambda q, k, v, cz: (flush(q, k, v, cz), f(q, k, v, cz)))(f)
                            for n, f in base.items()})
            kernels["flush"] = flush
            t = interleaved_ms(kernels, sets, causal, rounds=args.rounds, graph=True, batch_ms=30.0)
            fl = t["flush"]
            row = {"case": case.label(), "ms": {}, "ratio_vs_dhpfa": {}}
            for n in base:
                row["ms"][n] = statistics.median(t[n])
                row["ms"][n + "+flush"] = statistics.median([a - b for a, b in zip(t[n + "+flush"], fl)])
            for n in base:
                row["ratio_vs_dhpfa"][n] = statistics.median(b / a for a, b in zip(t[n], t["dhpfa"]))
                row["ratio_vs_dhpfa"][n + "+flush"] = statistics.median(
                    (b - f) / (a - f) for a, b, f in zip(t[n + "+flush"], t["dhpfa+flush"], fl))
            row["flush_ms"] = statistics.median(fl)
            res.append(row)
            print(case.label(), f"flush {row['flush_ms'] * 1e3:.1f} us;",
                  "  ".join(f"{n}={row['ms'][n] * 1e3:.1f}us(x{row['ratio_vs_dhpfa'][n]:.3f})" for n in row["ms"]),
                  flush=True)
            del sets
            torch.cuda.empty_cache()
    with open(os.path.join(args.out, "l2_state_ab.json"), "w") as f:
        json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
