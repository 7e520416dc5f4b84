"""The sanitizer child's cluster cases alone (dhpfa.measure.sanitize: 24 programs on 64-key blocks, 40 programs on
128-key blocks; D = 64 / 128, causal and not, through the API; session 45: 72 programs with 1,061 keys, the two-CTA
clusters two an SM at D = 64, split keys in one program at D = 128), for a device run after a change to the cluster
builds only (session 44), without the whole child's precompile; session 47: the 4 / 8 / 16-part splits whose pairs of
parts are clusters (CL_TREE); session 51: the one-exchange meetings (CL_PULL).

    compute-sanitizer --tool memcheck --kernel-name kns=attn_fwd python3 scripts/sanitize_clusters.py
"""
import torch

import dhpfa
from dhpfa.kernels import variants

g = torch.Generator(device="cuda").manual_seed(0)
for b, sq, sk in ((1, 333, variants.FEW_PROGRAMS_CLUSTER_SEQ + 77), (1, 600, variants.FEW_PROGRAMS_SPLIT_KV_SEQ + 476),
                  (1, 1100, variants.FEW_PROGRAMS_SPLIT_KV_SEQ + 37)):
    for d in (64, 128):
        for causal in (False, True):
            q = torch.randn(b, sq, 4, d, device="cuda", dtype=torch.bfloat16, generator=g)
            k, v = (torch.randn(b, sk, 2, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(2))
            dhpfa.flash_attn_func(q, k, v, causal=causal)
CASES = (  # (B, H, H_kv, S_q, S_k, D, causal), through the API
    # session 47: the splits of 4 / 8 / 16 parts whose pairs are clusters (sm90_fwd CL_TREE): packed decode (16 parts at
    # D=64, 8 at D=128), MQA decode (16 parts at D=128), 4 parts (few-tile prefill, causal), odd key counts
    (1, 32, 8, 1, 8192 + 37, 64, False), (1, 32, 8, 1, 4096 + 11, 128, False), (4, 32, 1, 1, 8192 + 3, 128, False),
    (1, 4, 4, 500, 2048 + 100, 64, False), (1, 1, 1, 2100, 2100, 128, True), (1, 1, 1, 2100, 2100, 64, True),
    # session 48: tiles of few rows (the meeting copies only the rows below S_q; pairs split evenly): decode of 4 rows on
    # 4 / 16 parts, MQA's 32 rows, a second tile of 36 rows (two parts), 33 rows (not even), odd key counts
    (1, 32, 8, 1, 1024 + 5, 64, False), (1, 32, 8, 1, 1500, 128, False), (1, 32, 8, 1, 3072 + 9, 64, False),
    (4, 32, 1, 1, 1024 + 7, 128, False), (1, 4, 4, 100, 1100, 64, True), (1, 2, 2, 33, 2100, 128, False),
    # session 50: clusters of sixteen (MQA of one sequence: 16 / 32 / 64 parts; seven tiles of 16 parts), odd key counts
    (1, 32, 1, 1, 2048 + 5, 64, False), (1, 32, 1, 1, 16384 + 3, 128, True), (1, 32, 1, 1, 32768 + 1, 64, False),
    (1, 28, 7, 1, 8192 + 9, 128, False),
    # session 51: one cluster of 4 / 8 / 16 parts a tile meeting in one exchange (sm90_fwd CL_PULL): MQA of one and four
    # sequences (sixteen parts), grouped heads (eight parts; sixteen), D=64, odd key counts
    (1, 32, 1, 1, 2048 + 5, 128, False), (4, 32, 1, 1, 2048 + 7, 128, True), (1, 32, 8, 1, 8192 + 9, 128, False),
    (1, 32, 4, 1, 4096 + 1, 128, False), (1, 32, 1, 1, 4096 + 3, 64, False), (4, 32, 1, 1, 1024 + 7, 128, False))
for b, h, hk, sq, sk, d, causal in CASES:
    q = torch.randn(b, sq, h, d, device="cuda", dtype=torch.bfloat16, generator=g)
    k, v = (torch.randn(b, sk, hk, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(2))
    dhpfa.flash_attn_func(q, k, v, causal=causal)
torch.cuda.synchronize()
print("child done")
