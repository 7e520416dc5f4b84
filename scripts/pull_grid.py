"""Session 51 (for session 52): a cluster_tree_ab.py config on a full grid (B=16, H=2048/D, S=1024; thousands of
clusters), `calls` launches queued back to back into NaN-poisoned outputs, then two heads against float64, as
test_gpu's full-grid test; run several at once so that processes share the device (session 51: the one-exchange meeting
failed there and passed alone).

    python3 scripts/pull_grid.py CONFIG [D] [calls]    -> prints OK / BAD / an exception
"""
import os
import sys
import torch
sys.path.insert(0, "tests")
os.environ["CLUSTER_AB_WORKER"] = "1"  # import the module variants pull_one.py wrote (no rewrite from four processes)
from reference import attention_ref_rows
from cluster_tree_ab import CONFIGS, module

name = sys.argv[1]
d = int(sys.argv[2]) if len(sys.argv) > 2 else 128
calls = int(sys.argv[3]) if len(sys.argv) > 3 else 10
b, s, h = 16, 1024, 2048 // d
g = torch.Generator(device="cuda").manual_seed(d)
q, k, v = (torch.randn(b, h, s, d, device="cuda", dtype=torch.bfloat16, generator=g).transpose(1, 2) for _ in range(3))
out = torch.full((b, s, h, d), float("nan"), device="cuda", dtype=torch.bfloat16)
lse = torch.full((b, h, s), float("nan"), device="cuda")
try:
    for _ in range(calls):
        module(name).launch(q, k, v, out, lse, d ** -0.5, False, 0, **CONFIGS[name.partition("@")[0]])
    torch.cuda.synchronize()
    bad = bool(out.isnan().any() or lse.isnan().any())
    rows = torch.arange(0, s, 7, device="cuda")
    err = 0.0
    for bb, hh in ((0, 0), (b - 1, h - 1)):
        ro, rl = attention_ref_rows(q, k, v, d ** -0.5, None, bb, hh, rows)
        err = max(err, float((out[bb, rows, hh].double() - ro).norm() / ro.norm()))
    print(name, d, "OK" if err < 1e-2 and not bad else "BAD", f"{err:.2e}", flush=True)
except Exception as e:  # (a launch failure: the context is gone)
    print(name, d, "EXC", type(e).__name__, str(e)[:200], flush=True)
