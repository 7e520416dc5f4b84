"""Session 43 experiment: SPLIT_KV=2 with the tile's two programs as one thread-block cluster (sm90_fwd CLUSTER: part 1
hands its state to part 0 through distributed shared memory instead of the global workspace and flag). Correctness
against float64 on poisoned outputs (sm90_check.check: the cases' shapes, odd shapes with GQA, causal, bf16 / fp16),
bitwise repeats (eager and CUDA-graph replay), then CUDA-graph replay timing, interleaved rounds in random order,
against the API's call, the one-consumer build the API runs at (1,8,512,64) (x1) and the global-memory split (kv2).

    PYTHONPATH=src:scripts python3 scripts/cluster_ab.py --out DIR [--rounds 15] [--smoke]
"""
import argparse
import json
import os
import statistics

import torch

from dhpfa.kernels import sm90_fwd
from dhpfa.measure import bench
from dhpfa.measure.bench import interleaved_ms
from sm90_check import check, gluon_fn

X1 = dict(block_m=64, block_n=128, stages=2, warp_specialized=True, pv_overlap=True)  # SM90_FEW_PROGRAMS_MID


def kv(block_n=128, cluster=False, stages=2, **extra):
    return dict(block_m=64, block_n=block_n, stages=stages, warp_specialized=True, split_kv=2, pv_overlap=True,
                cluster=cluster, **extra)


CONFIGS = {"x1": X1, "kv2": kv(), "cl2": kv(cluster=True), "cl2_n64": kv(64, True, 3)}
CHECKED = ("cl2", "cl2_n64")
# (B, H, S_q, D, causal, S_k or None)
# the few-program grids the cluster rules cover (2 x programs <= SMs), causal ones with S_q = S_k (--rules)
RULES = [(1, 8, 512, 64, False, k) for k in (None, 768, 1024, 2048, 4096)] + \
        [(1, 8, 512, 128, False, k) for k in (None, 768, 1024, 2048, 4096)] + \
        [(1, 4, 512, 64, False, 2048), (1, 4, 512, 128, False, 2048), (1, 4, 1024, 64, False, None),
         (1, 8, 512, 64, True, None), (1, 8, 512, 128, True, None), (1, 4, 1024, 64, True, None),
         (1, 4, 1024, 128, True, None), (1, 2, 2048, 64, True, None), (1, 2, 2048, 128, True, None)]
FEW = [(1, 8, 512, 64, False, None), (1, 8, 512, 64, False, 1024), (1, 8, 512, 64, False, 2048),
       (1, 8, 512, 128, False, None), (1, 8, 512, 64, True, None)]  # one wave of programs (--few)
CASES = [(1, 8, 512, 64, False, None), (1, 8, 512, 64, True, None), (2, 8, 512, 64, False, None),
         (1, 8, 1024, 64, False, None), (1, 8, 2048, 64, False, None), (1, 8, 512, 128, False, None),
         (1, 8, 1024, 128, False, None), (1, 4, 2048, 64, True, None)]
ODD = [(1, 100, 100, 4, 2), (2, 333, 1000, 4, 2), (1, 64, 129, 4, 4), (1, 257, 640, 4, 1), (3, 1, 3000, 4, 2)]


def bitwise_repeats(fn, q, k, v, n):
    """(eager calls, CUDA-graph replays) of fn(q, k, v, False), n of each, whose output equals the first call's bit for
    bit (scripts/cluster_tree_ab.py too)."""
    first = fn(q, k, v, False).clone()
    same = sum(bool(torch.equal(fn(q, k, v, False), first)) for _ in range(n))
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        fn(q, k, v, False)
    torch.cuda.current_stream().wait_stream(s)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        o = fn(q, k, v, False)
    same_g = 0
    for _ in range(n):
        graph.replay()
        torch.cuda.synchronize()
        same_g += bool(torch.equal(o, first))
    return same, same_g


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out")
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--smoke", action="store_true", help="one launch of each checked build at (1,8,512,64), checked")
    ap.add_argument("--configs", default=",".join(CONFIGS))
    ap.add_argument("--timing-only", action="store_true")
    ap.add_argument("--few", action="store_true", help="the cases of one wave of programs (FEW), 512 queries")
    ap.add_argument("--rules", action="store_true", help="the few-program grids of the cluster rules (RULES)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    ok = True
    if args.smoke:
        for name in CHECKED:
            err, bad = check(1, 512, 512, 8, 8, 64, False, torch.bfloat16, CONFIGS[name])
            print(f"smoke {name}: rel err {err:.2e} bad={bad}", flush=True)
            ok &= err < 1e-2 and not bad
        return 0 if ok else 1
    checks = []
    for d in (() if args.timing_only else (64, 128)):
        for b, s, sk, h, hk in [(1, 512, 512, 8, 8), (2, 512, 512, 8, 8), (1, 2048, 2048, 4, 4)] + ODD:
            for causal in (False, True):
                for dt in (torch.bfloat16, torch.float16):
                    for name in CHECKED:
                        err, bad = check(b, s, sk, h, hk, d, causal, dt, CONFIGS[name])
                        good = err < {torch.bfloat16: 1e-2, torch.float16: 2e-3}[dt] and not bad
                        ok &= good
                        checks.append(dict(config=name, shape=[b, s, sk, h, hk, d], causal=causal, dtype=str(dt),
                                           rel_err=err, bad=bad))
                        if not good:
                            print(f"FAIL {name} {(b, s, sk, h, hk)} D{d} causal={causal} {dt}: {err:.2e} {bad}",
                                  flush=True)
    print(f"correctness: {len(checks)} checks, " + ("all OK" if ok else "FAILURES"), flush=True)
    # bitwise repeats: 100 eager calls and 100 graph replays of one input
    rep = {}
    for name in (() if args.timing_only else CHECKED):
        fn = gluon_fn(CONFIGS[name])
        g = torch.Generator(device="cuda").manual_seed(5)
        q, k, v = (torch.randn(1, 8, 512, 64, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(3))
        same, same_g = bitwise_repeats(fn, q, k, v, 100)
        rep[name] = (same, same_g)
        print(f"bitwise repeats {name}: eager {same}/100, graph {same_g}/100", flush=True)
        ok &= same == 100 and same_g == 100
    peers = bench.peer_kernels()
    res = []
    for b, h, s, d, causal, sk in (RULES if args.rules else FEW if args.few else CASES):
        kernels = {"api": peers["dhpfa"], "sdpa_cudnn": peers["sdpa_cudnn"]}
        for name in args.configs.split(","):
            kernels[name] = gluon_fn(CONFIGS[name])
        case = bench.Case(b, h, s, d, causal)
        sets = bench.make_inputs(case, 4, seq_k=sk)
        times = interleaved_ms(kernels, sets, causal, rounds=args.rounds, graph=True, batch_ms=5.0)
        us = {n: statistics.median(t) * 1000 for n, t in times.items()}
        x = {n: statistics.median(a / c for a, c in zip(times["x1"], t)) for n, t in times.items()}
        res.append(dict(case=[b, h, s, d, causal, sk], us=us, speedup_vs_x1=x))
        print(f"{(b, h, s, sk or s, d, 'causal' if causal else '')}: " + "  ".join(f"{n}={u:.2f}us(x{x[n]:.3f})"
                                                                         for n, u in us.items()), flush=True)
    with open(os.path.join(args.out, "cluster_ab.json"), "w") as f:
        json.dump(dict(device=torch.cuda.get_device_name(), checks=checks, repeats=rep, results=res, correct=ok), f,
                  indent=1)
    print("correctness:", "all OK" if ok else "FAILURES")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
