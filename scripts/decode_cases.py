"""Shared set-up of the decode-step scripts (session 36): one decode step's tensors through flash_attn_with_kvcache
(one query per sequence, full caches of 32 / 8 heads, D=256 16 / 8) and interleaved A/B rounds in CUDA-graph replay.
Used by combine_ab.py, decode_api_ab.py, decode_step_time.py, decode_switch_ab.py, decode_split_sweep.py and
maxnreg_ab.py."""
import random

import torch


def heads(d):
    """(query heads, key / value heads) of the decode scripts at head dim d."""
    return (32 if d <= 128 else 16), 8


def decode_case(b, n, d, g, hk=None):
    """(q (b, 1, H, d), k_cache, v_cache (b, n, H_kv, d), cache_seqlens of full caches (b,) int32) on the GPU, bf16,
    drawn from the CUDA generator g."""
    h, hk_default = heads(d)
    hk = hk or hk_default
    kc, vc = (torch.randn(b, n, hk, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(2))
    q = torch.randn(b, 1, h, d, device="cuda", dtype=torch.bfloat16, generator=g)
    lens = torch.full((b,), n, dtype=torch.int32, device="cuda")
    return q, kc, vc, lens


def interleaved_graph_ms(names, setup, fn, rounds, replays=20):
    """{name: [ms per call in graph replay, one per round]}: every round runs setup(name) then times fn (one callable
    for every name, or a mapping name -> callable) for each name, in an order shuffled per round (seeded by the
    round)."""
    from dhpfa.measure.bench import graph_ms
    times = {nm: [] for nm in names}
    for r in range(rounds):
        order = list(names)
        random.Random(r).shuffle(order)
        for nm in order:
            setup(nm)
            times[nm].append(graph_ms(fn[nm] if isinstance(fn, dict) else fn, [()], replays=replays))
    return times
