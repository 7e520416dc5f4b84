#!/bin/bash
# Session 9, device run 14: run 10's long-context A/B again with more rounds (one and two Q buffers, B=1,
# H=16, D=128, 15 rounds, two input sets).
#   bash scripts/session9_run14.sh
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
timeout 300 python3 - <<'PY'
import statistics, torch
from dhpfa.measure import bench
from sm90_check import gluon_fn
base = dict(block_m=128, block_n=128, stages=2, warp_specialized=True, split=2, pingpong=True, persistent=True)
kernels = {"n128s2": gluon_fn(base), "n128s2_qd": gluon_fn(dict(base, q_double=True))}
for s in (16384, 32768, 131072):
    case = bench.Case(1, 16, s, 128, False, "bf16")
    sets = bench.make_inputs(case, 2)
    t = bench.interleaved_ms(kernels, sets, False, rounds=15)
    ratio = statistics.median(b / a for a, b in zip(t["n128s2_qd"], t["n128s2"]))
    print(case.label(), {n: round(case.flops() / statistics.median(v) / 1e9) for n, v in t.items()},
          f"qd speedup x{ratio:.3f}", flush=True)
    del sets; torch.cuda.empty_cache()
PY
