#!/bin/bash
# Session 9, device run 10: long context (B=1, H=16, D=128) with one and two Q buffers, interleaved rounds
# (run 9's grid read 128K at 0.89 of 16K with the two-buffer build, 0.96 in session 8 with one), and the
# two new Q-buffer cases of tests/test_sm90_fwd.py::test_gluon_kernel_matches_float64.
#   bash scripts/session9_run10.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
timeout 200 python3 - <<'PY'
import statistics, torch
from dhpfa.measure import bench
from sm90_check import gluon_fn
base = dict(block_m=128, block_n=128, stages=2, warp_specialized=True, split=2, pingpong=True, persistent=True)
kernels = {"n128s2": gluon_fn(base), "n128s2_qd": gluon_fn(dict(base, q_double=True))}
for s in (16384, 131072):
    case = bench.Case(1, 16, s, 128, False, "bf16")
    sets = bench.make_inputs(case, 2)
    t = bench.interleaved_ms(kernels, sets, False, rounds=9)
    ratio = statistics.median(b / a for a, b in zip(t["n128s2_qd"], t["n128s2"]))
    print(case.label(), {n: round(case.flops() / statistics.median(v) / 1e9) for n, v in t.items()},
          f"qd speedup x{ratio:.3f}", flush=True)
    del sets; torch.cuda.empty_cache()
PY
timeout 200 python3 -m pytest -m gpu -q -p no:cacheprovider tests/test_sm90_fwd.py -k "two-q-buffers" 2>&1 | tail -2
