"""Paged caches on the Hopper varlen kernel (session 32): flash_attn_with_kvcache prefill chunks and flash_attn_varlen_func
prefill against paged caches, the API (the Hopper paged build where variants.varlen_sm90_pages allows) against the
portable paged kernel (the Hopper rule off) and against the same keys in a contiguous cache (the Hopper unpaged build),
in CUDA-graph replay, interleaved rounds; outputs compared (paged Hopper bitwise equal to contiguous Hopper).

    PYTHONPATH=src python3 scripts/paged_hopper_ab.py [--rounds 7] [--out DIR]
"""
import argparse
import json
import os
import statistics

import torch

import dhpfa
from dhpfa import api
from dhpfa.kernels import variants
from dhpfa.measure.bench import graph_ms


def paged_copy(kc, vc, page, gen):
    """The contiguous caches kc, vc (B, S, H_kv, D) as pages of `page` rows in one random order: (k pages, v pages,
    block table)."""
    b, sc = kc.shape[:2]
    per = sc // page
    perm = torch.randperm(b * per, generator=gen).to(kc.device)
    kp, vp = (torch.empty(b * per, page, *t.shape[2:], dtype=t.dtype, device=t.device) for t in (kc, vc))
    kp[perm] = kc.reshape(b * per, page, *kc.shape[2:])
    vp[perm] = vc.reshape(b * per, page, *vc.shape[2:])
    return kp, vp, perm.view(b, per).to(torch.int32)


def kernels_of_plans():
    return sorted({p.variant.kernel for p in api._PLANS.values() if isinstance(p, api._VarlenPlan)
                   and p.variant is not None})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--out", default="out")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    gen = torch.Generator().manual_seed(32)
    g = torch.Generator(device="cuda").manual_seed(32)
    res = {"device": torch.cuda.get_device_name(), "rows": []}
    saved = variants.VARLEN_SM90_MIN_Q
    print(f"{'case':<52} {'hopper paged':>13} {'portable paged':>15} {'hopper contiguous':>18}  x(portable)  kernels")
    cases = [("kvcache", 8, 8192, 32, 8, 128, 1024, 256), ("kvcache", 8, 8192, 32, 8, 128, 2048, 256),
             ("kvcache", 8, 8192, 32, 8, 128, 1024, 128), ("kvcache", 4, 16384, 16, 2, 256, 512, 256),
             ("kvcache", 4, 16384, 16, 2, 256, 512, 64), ("varlen", 8, 4096, 32, 8, 128, 0, 256),
             ("varlen", 8, 4096, 16, 2, 256, 0, 256)]
    for kind, b, sc, h, hk, d, s_new, page in cases:
        kc, vc = (torch.randn(b, sc, hk, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(2))
        kp, vp, bt = paged_copy(kc, vc, page, gen)
        if kind == "kvcache":
            lens = torch.randint(s_new, sc, (b,), generator=gen).to("cuda", torch.int32)
            q = torch.randn(b, s_new, h, d, device="cuda", dtype=torch.bfloat16, generator=g)
            calls = {"paged": lambda: dhpfa.flash_attn_with_kvcache(q, kp, vp, cache_seqlens=lens, block_table=bt,
                                                                     causal=True),
                     "contiguous": lambda: dhpfa.flash_attn_with_kvcache(q, kc, vc, cache_seqlens=lens, causal=True)}
            flops = sum(4 * h * d * (s_new * n - s_new * (s_new - 1) // 2) for n in lens.tolist())
            label = f"kvcache B={b} cache={sc} H={h}/{hk} D={d} chunk={s_new} page={page}"
        else:  # varlen prefill of mixed lengths, keys = queries, from a paged cache
            lens_l = torch.randint(64, sc + 1, (b,), generator=gen).tolist()
            cu = torch.tensor([0] + list(torch.tensor(lens_l).cumsum(0)), dtype=torch.int32, device="cuda")
            q = torch.randn(sum(lens_l), h, d, device="cuda", dtype=torch.bfloat16, generator=g)
            kcat = torch.cat([kc[i, :n] for i, n in enumerate(lens_l)])
            vcat = torch.cat([vc[i, :n] for i, n in enumerate(lens_l)])
            mq = max(lens_l)
            calls = {"paged": lambda: dhpfa.flash_attn_varlen_func(q, kp, vp, cu, cu, mq, mq, causal=True,
                                                                    block_table=bt),
                     "contiguous": lambda: dhpfa.flash_attn_varlen_func(q, kcat, vcat, cu, cu, mq, mq, causal=True)}
            flops = sum(4 * h * d * (n * n - n * (n - 1) // 2) for n in lens_l)
            label = f"varlen B={b} lens 64-{sc} (max {mq}) H={h}/{hk} D={d} page={page}"
        times = {"hopper paged": [], "portable paged": [], "hopper contiguous": []}
        outs, kern = {}, {}
        for r in range(a.rounds):
            for name in times:
                variants.VARLEN_SM90_MIN_Q = None if name == "portable paged" else saved
                api._PLANS.clear()
                fn = calls["contiguous" if name == "hopper contiguous" else "paged"]
                outs[name] = fn()
                kern[name] = kernels_of_plans()
                times[name].append(graph_ms(lambda: fn(), [()], replays=10))
        variants.VARLEN_SM90_MIN_Q = saved
        med = {n: statistics.median(t) for n, t in times.items()}
        same = torch.equal(outs["hopper paged"], outs["hopper contiguous"])
        err = ((outs["hopper paged"].float() - outs["portable paged"].float()).norm()
               / outs["portable paged"].float().norm()).item()
        row = dict(case=label, ms=med, tflops={n: flops / (m * 1e-3) / 1e12 for n, m in med.items()}, kernels=kern,
                   paged_equals_contiguous=same, rel_diff_portable=err)
        res["rows"].append(row)
        print(f"{label:<52} " + " ".join(f"{med[n]:.3f} ms {row['tflops'][n]:4.0f}" for n in times)
              + f"  x{med['portable paged'] / med['hopper paged']:.2f}  bitwise={same} diff={err:.1e} "
              f"{kern['hopper paged']}", flush=True)
    with open(os.path.join(a.out, "paged_hopper_ab.json"), "w") as f:
        json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
