"""The portable varlen kernel's soft-cap tanh (session 34): MUFU.TANH (ctmath.tanh_mufu, the shipped GPU builds)
against the exponential form (tanh_ct: MUFU.EX2 + MUFU.RCP) on the calls that run it on Hopper: D=64 prefill (no
Hopper varlen build there), D=128 causal prefill below the Hopper rule's 1,024 queries, and grouped decode steps on a
paged cache (window + soft-cap, Gemma 2; soft-cap alone, D=128). CUDA-graph replay, both forms interleaved in random
order per round (bench.interleaved_ms); each form's output against float64 on the first sequence, and the two forms'
relative difference.

    PYTHONPATH=src:scripts python3 scripts/softcap_tanh_ab.py [--rounds 9] [--out DIR]
"""
import argparse
import json
import os
import statistics

import torch

import dhpfa
from dhpfa import api
from dhpfa.kernels import triton_fwd
from dhpfa.measure.bench import interleaved_ms
from paged_hopper_ab import paged_copy
from varlen_bench import offsets


def ref_first(q, k, v, n_q, n_k, scale, cap, window):
    """float64 output of sequence 0 (n_q queries, n_k keys, bottom-right causal, optional left window)."""
    qd, kd, vd = (t.double() for t in (q[:n_q], k[:n_k], v[:n_k]))
    g = qd.shape[1] // kd.shape[1]
    kd, vd = kd.repeat_interleave(g, 1), vd.repeat_interleave(g, 1)
    s = torch.einsum("qhd,khd->hqk", qd, kd) * scale
    s = cap * torch.tanh(s / cap)
    i = torch.arange(n_q, device=q.device)[:, None] + n_k - n_q
    j = torch.arange(n_k, device=q.device)[None, :]
    bad = j > i
    if window >= 0:
        bad |= j < i - window
    s = s.masked_fill(bad, float("-inf"))
    return torch.einsum("hqk,khd->qhd", s.softmax(-1), vd)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--out", default="out")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    gen = torch.Generator().manual_seed(34)
    g = torch.Generator(device="cuda").manual_seed(34)
    bf = torch.bfloat16
    res = {"device": torch.cuda.get_device_name(), "rows": []}
    lens_mixed = [64, 4096, 700, 1500, 300, 2048, 3000, 900]
    lens_short = [900, 512, 1000, 333, 800, 1023, 640, 700]
    cases = [  # (label, H, H_kv, D, lens_q, lens_k, cap, window, paged cache rows or 0)
        ("D=64 prefill mixed 64-4096 causal, cap 30", 32, 8, 64, lens_mixed, lens_mixed, 30.0, -1, 0),
        ("D=128 prefill 333-1023 causal, cap 30", 16, 8, 128, lens_short, lens_short, 30.0, -1, 0),
        ("D=128 decode paged, cap 30", 32, 8, 128, [1] * 8, [8000, 3000, 5000, 7000, 100, 6000, 4000, 8100], 30.0,
         -1, 8192),
        ("D=256 decode paged, window 4095 + cap 50", 16, 8, 256, [1] * 8,
         [8000, 3000, 5000, 7000, 100, 6000, 4000, 8100], 50.0, 4095, 8192)]
    print(f"{'case':<44} {'exp us':>9} {'mufu us':>9}  x     err exp / mufu    diff")
    for label, h, hk, d, lens_q, lens_k, cap, window, cache in cases:
        q = torch.randn(sum(lens_q), h, d, device="cuda", dtype=bf, generator=g)
        cu_q = offsets(lens_q)
        if cache:
            b = len(lens_q)
            kc, vc = (torch.randn(b, cache, hk, d, device="cuda", dtype=bf, generator=g) for _ in range(2))
            kp, vp, bt = paged_copy(kc, vc, 256, gen)
            lens = torch.tensor(lens_k, dtype=torch.int32, device="cuda")

            def call():
                return dhpfa.flash_attn_with_kvcache(q.view(b, 1, h, d), kp, vp, cache_seqlens=lens, block_table=bt,
                                                     causal=True, window_size=(window, -1), softcap=cap).view(-1, h, d)
            k0, v0 = kc[0, :lens_k[0]], vc[0, :lens_k[0]]
        else:
            k, v = (torch.randn(sum(lens_k), hk, d, device="cuda", dtype=bf, generator=g) for _ in range(2))
            cu_k = offsets(lens_k)

            def call():
                return dhpfa.flash_attn_varlen_func(q, k, v, cu_q, cu_k, max(lens_q), max(lens_k), causal=True,
                                                    window_size=(window, -1), softcap=cap)
            k0, v0 = k[:lens_k[0]], v[:lens_k[0]]
        outs, kernels, plans = {}, {}, {False: {}, True: {}}

        def form(flag):
            def fn(*_):  # each form with plans (and launchers) of its own: the plan's key does not hold the flag
                triton_fwd.SOFTCAP_MUFU = flag
                api._PLANS = plans[flag]
                return call()
            return fn
        for name, flag in (("exp", False), ("mufu", True)):
            outs[name] = form(flag)()
            kernels[name] = sorted({p.variant.kernel for p in plans[flag].values() if isinstance(p, api._VarlenPlan)
                                    and p.variant is not None})
        ref = ref_first(q, k0, v0, lens_q[0], lens_k[0], d ** -0.5, cap, window)
        err = {n: ((o[:lens_q[0]].double() - ref).norm() / ref.norm()).item() for n, o in outs.items()}
        diff = ((outs["exp"].float() - outs["mufu"].float()).norm() / outs["exp"].float().norm()).item()
        times = interleaved_ms({"exp": form(False), "mufu": form(True)}, [(None, None, None)], False,
                               rounds=a.rounds, graph=True)
        triton_fwd.SOFTCAP_MUFU, api._PLANS = True, {}
        med = {n: statistics.median(t) * 1000 for n, t in times.items()}
        ratio = statistics.median([e / m for e, m in zip(times["exp"], times["mufu"])])
        print(f"{label:<44} {med['exp']:9.1f} {med['mufu']:9.1f}  x{ratio:.3f}  {err['exp']:.1e} / {err['mufu']:.1e}"
              f"  {diff:.1e}  {kernels['mufu']}", flush=True)
        res["rows"].append(dict(case=label, us=med, x_mufu=ratio, err_vs_float64=err, rel_diff=diff, kernels=kernels))
    with open(os.path.join(a.out, "softcap_tanh_ab.json"), "w") as f:
        json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
