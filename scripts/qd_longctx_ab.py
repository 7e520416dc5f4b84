"""One and two Q buffers (sm90_fwd Q_DOUBLE) at D=128 long context, B=1, H=16, non-causal: interleaved rounds,
median per-round speedup of the two-buffer build (session 9 runs 10 and 14).

    PYTHONPATH=src:scripts python3 scripts/qd_longctx_ab.py --seqs 16384,131072 --rounds 9
"""
import argparse
import statistics

import torch

from dhpfa.measure import bench
from sm90_check import gluon_fn


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seqs", default="16384,131072")
    ap.add_argument("--rounds", type=int, default=15)
    a = ap.parse_args()
    base = dict(block_m=128, block_n=128, stages=2, warp_specialized=True, split=2, pingpong=True, persistent=True)
    kernels = {"n128s2": gluon_fn(base), "n128s2_qd": gluon_fn(dict(base, q_double=True))}
    for s in (int(x) for x in a.seqs.split(",")):
        case = bench.Case(1, 16, s, 128, False, "bf16")
        sets = bench.make_inputs(case, 2)
        t = bench.interleaved_ms(kernels, sets, False, rounds=a.rounds)
        ratio = statistics.median(b / x for x, b in zip(t["n128s2_qd"], t["n128s2"]))
        print(case.label(), {n: round(case.flops() / statistics.median(v) / 1e9) for n, v in t.items()},
              f"qd speedup x{ratio:.3f}", flush=True)
        del sets
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
