"""SDPA-style top-left causal with few queries and many keys (device run): the API's plan (chosen by the keys rows
can see) beside the split across four programs that seq_k alone would choose, both with the top-left mask, in
CUDA-graph replay (interleaved rounds).

    PYTHONPATH=src:scripts python3 scripts/topleft_causal.py
"""
import statistics

import torch

import dhpfa
from dhpfa.kernels import variants
from dhpfa.measure import bench
from dhpfa.measure.bench import interleaved_ms
from small_tiles import variant_fn  # scripts/


for d in (64, 128):
    shape, sk = (1, 4, 512, d), 16384
    sets = bench.make_inputs(bench.Case(*shape, True), 4, seed=d, seq_k=sk)
    kv4 = variants.Variant(*variants.SM90_FEW_PROGRAMS_SPLIT_KV4[(d, True)], torch.bfloat16, d, True)
    kernels = {"api": lambda q, k, v, c: dhpfa.scaled_dot_product_attention(q, k, v, is_causal=c),
               "kv4_top_left": variant_fn(kv4, shape, causal_offset=0)}
    times = interleaved_ms(kernels, sets, True, rounds=9, batch_ms=5.0, graph=True)
    print(f"D={d} (1,4,512 queries,{sk} keys) top-left causal: " +
          "  ".join(f"{n} {statistics.median(t) * 1000:.2f} us" for n, t in times.items()), flush=True)
