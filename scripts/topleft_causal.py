"""SDPA-style top-left causal with few queries and many keys (device run): the API's plan (chosen by the keys rows
can see) beside the split across four programs that seq_k alone would choose, both with the top-left mask, in
CUDA-graph replay (interleaved rounds).

    PYTHONPATH=src:scripts python3 scripts/topleft_causal.py
"""
import statistics

import torch

import dhpfa
from dhpfa.kernels import dispatch, variants
from dhpfa.measure import bench
from dhpfa.measure.bench import interleaved_ms


def direct(v, shape):
    b, h, s, d = shape
    out = torch.empty((b, s, h, d), device="cuda", dtype=torch.bfloat16)
    lse = torch.empty((b, h, s), device="cuda", dtype=torch.float32)

    def fn(q, k, vv, causal):
        dispatch.launch(v, q.transpose(1, 2), k.transpose(1, 2), vv.transpose(1, 2), out, lse, d ** -0.5, causal, 0)
        return out
    return fn


for d in (64, 128):
    shape, sk = (1, 4, 512, d), 16384
    sets = bench.make_inputs(bench.Case(*shape, True), 4, seed=d, seq_k=sk)
    kv4 = variants.Variant(*variants.SM90_FEW_PROGRAMS_SPLIT_KV4[(d, True)], torch.bfloat16, d, True)
    kernels = {"api": lambda q, k, v, c: dhpfa.scaled_dot_product_attention(q, k, v, is_causal=c),
               "kv4_top_left": direct(kv4, shape)}
    times = interleaved_ms(kernels, sets, True, rounds=9, batch_ms=5.0, graph=True)
    print(f"D={d} (1,4,512 queries,{sk} keys) top-left causal: " +
          "  ".join(f"{n} {statistics.median(t) * 1000:.2f} us" for n, t in times.items()), flush=True)
