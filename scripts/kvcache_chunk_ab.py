"""flash_attn_with_kvcache prefill chunks against caches of per-sequence lengths: the Hopper varlen kernel (the API's
rule) against the portable varlen kernel (the rule off), alternating in CUDA-graph replay (session 30).

    PYTHONPATH=src python3 scripts/kvcache_chunk_ab.py [--rounds 5]
"""
import argparse
import statistics

import torch

import dhpfa
from dhpfa import api
from dhpfa.kernels import variants
from dhpfa.measure.bench import graph_ms

ap = argparse.ArgumentParser()
ap.add_argument("--rounds", type=int, default=5)
a = ap.parse_args()
g = torch.Generator(device="cuda").manual_seed(3)
for b, sc, h, hk, d, s_new, causal in ((8, 8192, 32, 8, 128, 1024, True), (8, 8192, 32, 8, 128, 2048, True),
                                       (4, 16384, 16, 2, 256, 512, True)):
    lens = torch.randint(s_new, sc, (b,), generator=g, device="cuda", dtype=torch.int32)
    kc, vc = (torch.randn(b, sc, hk, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(2))
    q = torch.randn(b, s_new, h, d, device="cuda", dtype=torch.bfloat16, generator=g)

    def call(q):  # (no new tokens: the cache stays as it is, so every replay reads the same keys)
        return dhpfa.flash_attn_with_kvcache(q, kc, vc, cache_seqlens=lens, causal=causal)
    # useful FLOPs: query i of a chunk over n cached keys sees n - s_new + i + 1 of them (causal, bottom-right)
    flops = sum(4 * h * d * (s_new * n - (s_new * (s_new - 1) // 2 if causal else 0)) for n in lens.tolist())
    times = {"hopper": [], "portable": []}
    outs = {}
    saved = variants.VARLEN_SM90_MIN_Q
    for r in range(a.rounds):
        for name in ("hopper", "portable"):
            variants.VARLEN_SM90_MIN_Q = saved if name == "hopper" else None
            api._PLANS.clear()
            outs[name] = call(q)
            kernels = sorted({p.variant.kernel for p in api._PLANS.values() if isinstance(p, api._VarlenPlan)
                              and p.variant is not None})
            times[name].append(graph_ms(call, [(q,)], replays=20))
    variants.VARLEN_SM90_MIN_Q = saved
    diff = float((outs["hopper"].float() - outs["portable"].float()).norm() / outs["portable"].float().norm())
    med = {n: statistics.median(t) for n, t in times.items()}
    print(f"B={b} cache={sc} H={h}/{hk} D={d} chunk={s_new} causal={causal}: " + "  ".join(
        f"{n} {med[n]:.3f} ms {flops / med[n] / 1e9:.0f} TFLOPS" for n in med) +
        f"  x{med['portable'] / med['hopper']:.2f}  diff {diff:.1e}", flush=True)
