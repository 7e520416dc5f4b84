"""Host time of the parts of an eager decode step (flash_attn_with_kvcache, B=1, D=128, 2K cache, one new token): each
part timed alone over back-to-back calls (perf_counter), so the parts of the whole can be told apart. Writes
host_parts.json under --out.

    PYTHONPATH=src:scripts python3 scripts/host_parts.py [--calls 2000] [--out DIR]
"""
import argparse
import json
import os

import torch
import triton

import dhpfa
from dhpfa import api
from dhpfa.kernels import dispatch, triton_fwd
from kvcache_host import per_call_us


def us(fn, n):
    return per_call_us(fn, n)[0]


@triton.jit
def _empty_kernel(X):
    pass


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=2000)
    ap.add_argument("--out", default="out")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    n = a.calls
    dt = torch.bfloat16
    b, sc, h, hk, d = 1, 2048, 32, 8, 128
    g = torch.Generator(device="cuda").manual_seed(35)
    kc, vc = (torch.randn(b, sc, hk, d, device="cuda", dtype=dt, generator=g) for _ in range(2))
    q = torch.randn(b, 1, h, d, device="cuda", dtype=dt, generator=g)
    kn, vn = (torch.randn(b, 1, hk, d, device="cuda", dtype=dt, generator=g) for _ in range(2))
    lens = torch.full((b,), 1000, device="cuda", dtype=torch.int32)
    rows = {}

    def step():
        return dhpfa.flash_attn_with_kvcache(q, kc, vc, kn, vn, cache_seqlens=lens, causal=True)

    def step_no_new():
        return dhpfa.flash_attn_with_kvcache(q, kc, vc, cache_seqlens=lens, causal=True)
    step()
    rows["decode step, 1 new token"] = us(step, n)
    rows["decode step, no new token"] = us(step_no_new, n)
    kr, vr = kc.view(b * sc, hk, d), vc.view(b * sc, hk, d)
    rows["_kvcache_append"] = us(lambda: api._kvcache_append(lens, None, None, kn, vn, kr, vr, None, sc, 1, False)[0], n)
    rows["_kvcache_bounds"] = us(lambda: api._kvcache_bounds(lens, None, None, 1, sc, False), n)
    bounds = api._kvcache_bounds(lens, None, None, 1, sc, False)
    rows["_batched_varlen"] = us(lambda: api._batched_varlen(q, kr, vr, bounds, sc, None, True, False, (-1, -1), 0.0,
                                                             k_stride=2, want_lse=False), n)
    q3 = q.reshape(b, h, d)
    cu_q = api._dense_offsets(q.device, b, 1)
    rows["_varlen_call"] = us(lambda: api._varlen_call(q3, kr, vr, cu_q, bounds, 1, sc, None, True, False, (-1, -1),
                                                       0.0, 2), n)
    sig = api._signature("varlen", q3, kr, vr, True, None, api._varlen_extra(cu_q, bounds, 1, sc, (-1, -1), 0.0) +
                         (2,))
    plan = api._cached_plan(sig, q3, kr, vr)
    rows["_varlen_extra + _signature"] = us(lambda: api._signature("varlen", q3, kr, vr, True, None, api._varlen_extra(
        cu_q, bounds, 1, sc, (-1, -1), 0.0) + (2,)), n)
    rows["_cached_plan (dict lookup)"] = us(lambda: api._cached_plan(sig, q3, kr, vr), n)
    rows["torch.empty (1 x 32 x 128 bf16)"] = us(lambda: torch.empty((1, 32, 128), dtype=dt, device="cuda"), n)
    rows["api._empty"] = us(lambda: api._empty((1, 32, 128), dt, q.device), n)
    rows["varlen_workspace"] = us(lambda: triton_fwd.varlen_workspace(q3, plan.splits), n) if plan.splits > 1 else 0
    out = torch.empty_like(q3)
    lse = torch.empty((h, 1), dtype=torch.float32, device="cuda")
    ws = triton_fwd.varlen_workspace(q3, plan.splits) if plan.splits > 1 else ()
    tensors = (q3, kr, vr, out, lse, cu_q, bounds, None) + ws
    launcher = plan.launcher
    rows[f"plan launcher ({type(launcher).__name__}, splits {plan.splits})"] = us(
        lambda: launcher(tensors, plan.scale, 0), n)
    if isinstance(launcher, dispatch._Pair):
        rows["attention _Launcher alone"] = us(lambda: launcher.first(tensors, plan.scale, 0), n)
        rows["combine _Launcher alone"] = us(lambda: launcher.second(tensors, plan.scale, 0), n)
        first = launcher.first
        vals = []
        rows["attention: kernel.run alone (args prebuilt)"] = 0.0
        # the args as _Launcher builds them, then the raw launch
        for p in first.plan:
            if p[0] == "t":
                vals.append(tensors[p[1]])
            elif p[0] == "s":
                vals.append(float(plan.scale) * 1.4426950408889634)
            else:
                vals.append(p[1])
        tail = [t.fresh(q.device) if isinstance(t, (dispatch._Workspace, dispatch._Nonce)) else
                dispatch._aligned(tensors[t.index]) if isinstance(t, dispatch._TensorArg) else t for t in first.tail]
        rows["attention: kernel.run alone (args prebuilt)"] = us(
            lambda: dispatch.run_compiled(first.kernel, first.grid, 0, *vals, *tail), n)
        rows["attention: argument count"] = len(vals) + len(tail)
    x = torch.empty(16, device="cuda")
    _empty_kernel[(1,)](x)
    rows["empty Triton kernel, JIT launch"] = us(lambda: _empty_kernel[(1,)](x), n)
    ek = _empty_kernel[(1,)](x)
    rows["empty Triton kernel, kernel.run"] = us(lambda: dispatch.run_compiled(ek, (1, 1, 1), 0, x), n)
    rows["torch add_ (one kernel)"] = us(lambda: x.add_(1.0), n)
    q4 = torch.randn(1, 8, 512, 64, device="cuda", dtype=dt)
    rows["torch SDPA (1,8,512,64)"] = us(lambda: torch.nn.functional.scaled_dot_product_attention(q4, q4, q4), n)
    qf = q4.transpose(1, 2)
    rows["dhpfa.flash_attn_func (1,512,8,64)"] = us(lambda: dhpfa.flash_attn_func(qf, qf, qf), n)
    for k, v in rows.items():
        print(f"{k:<52} {v:8.2f}" if isinstance(v, float) else f"{k:<52} {v}")
    with open(os.path.join(a.out, "host_parts.json"), "w") as f:
        json.dump({"device": torch.cuda.get_device_name(), "us": rows}, f, indent=1)


if __name__ == "__main__":
    main()
