"""Session 59: decode of grouped heads over batches of 4-64 sequences (32-512 (sequence, key/value head) pairs), where
call 1's wide3 sweep put the API 1-4% behind cuDNN ((4,32,8,1,16384,64) 37.96 / 36.57 us; (16,32,8,1,S,128)
x0.97-0.99; (64,32,8,1,S,*) x0.97-1.00). variants.swap_decode_parts gives no parts there (its part counts, 8-32, times
32-512 pairs overfill the SMs), so the forward kernels run them. Here the swapped-GEMM kernel with the parts that fill
the SMs (32 pairs x 4, 128 x 1; 512 x 1 in four waves) and one step either side, merged in the launch
(attn_decode_sm90_merged; one part: the merge of one state), against the API and cuDNN. float64 checks first (odd key
counts, outputs poisoned, two launches bitwise equal), then CUDA-graph replay in interleaved rounds (medians, us).

    PYTHONPATH=src:scripts python3 scripts/decode_batch59.py [--rounds 7] [--dims 64,128] [--edges | --fill | --next]
"""
import argparse

import torch

from dhpfa.kernels import sm90_decode
from dhpfa.measure import bench
from decode_merge56 import check, run, time_cell

# (B, H, H_kv, S_k): parts tried
CELLS = [((4, 32, 8, 1024), (2, 4, 8)), ((4, 32, 8, 4096), (2, 4, 8)), ((4, 32, 8, 16384), (2, 4, 8)),
         ((8, 28, 4, 4096), (2, 4)), ((16, 32, 8, 1024), (1, 2)), ((16, 32, 8, 4096), (1, 2)),
         ((16, 32, 8, 16384), (1, 2)), ((64, 32, 8, 1024), (1,)), ((64, 32, 8, 4096), (1,)),
         ((64, 32, 8, 16384), (1,))]

# --edges (call 3): part counts past the rule's key thresholds: 32 pairs x 4 below 1,024 keys, 16 pairs x 8 (D=128 from
# 16,384 keys, D=64 from 4,096), 8 pairs x 16 (from 16,384)
EDGES = [((4, 32, 8, 512), (4,)), ((4, 32, 8, 768), (4,)), ((2, 32, 8, 1024), (8,)), ((2, 32, 8, 4096), (8,)),
         ((2, 32, 8, 8192), (8,)), ((1, 32, 8, 1024), (16,)), ((1, 32, 8, 4096), (16,)), ((1, 32, 8, 8192), (16,))]

# --fill (call 6): pair counts the rule still leaves to the forward kernels, at part counts (any number: decode_parts)
# that fill 73-100% of 132 SMs
FILL = [((b, 32, 8, sk), parts) for b, parts in ((3, (4, 5)), (5, (2, 3)), (6, (2,)), (8, (2,)), (12, (1,)))
        for sk in (1024, 4096, 16384)] + \
       [((3, 32, 4, sk), (8, 10)) for sk in (1024, 4096, 16384)] + [((2, 24, 3, sk), (16, 20)) for sk in (4096, 16384)]

# --next (prepared in session 59, not run): the fill rule's untimed edges: D=128 past 4,096 keys (8,192) and 25-30 pairs;
# D=64 49-66 pairs at long keys (64 pairs x 2 won at 16,384 in call 6, lost at 1,024-4,096); D=64's 32 parts for 4
# pairs below 16,384 keys (SWAP_DECODE_LEAST_KEYS has no (64, 32))
NEXT = [((3, 32, 8, 8192), (5,)), ((2, 24, 3, 8192), (16, 22)), ((1, 40, 5, 8192), (26,)), ((7, 32, 4, 1024), (4,)),
        ((7, 32, 4, 4096), (4,)), ((5, 30, 6, 4096), (4,)), ((7, 32, 8, 16384), (2,)), ((8, 32, 8, 65536), (2,)),
        ((1, 32, 4, 1024), (32,)), ((1, 32, 4, 4096), (32,)), ((1, 32, 4, 8192), (32,))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--dims", default="64,128")
    ap.add_argument("--edges", action="store_true", help="EDGES' cells, no checks")
    ap.add_argument("--fill", action="store_true", help="FILL's cells, checks at 3 / 5 / 10 / 20 parts")
    ap.add_argument("--next", action="store_true", help="NEXT's cells (with --fill's checks)")
    a = ap.parse_args()
    dims = [int(x) for x in a.dims.split(",")]
    gen = torch.Generator(device="cuda").manual_seed(59)
    ok = True
    checks = ((5, 32, 8, 4099, 3), (3, 32, 8, 2001, 5), (3, 32, 4, 5000, 10), (2, 24, 3, 9000, 20)) \
        if a.fill or a.next else \
        ((4, 32, 8, 4099, 4), (16, 32, 8, 1021, 1), (3, 28, 4, 777, 2), (16, 32, 8, 3000, 2), (64, 16, 8, 515, 1))
    for d in () if a.edges else dims:
        for b, h, hk, sk, parts in checks:
            ok &= check(b, h, hk, sk, d, parts, True, None, gen)
    print("checks", "OK" if ok else "FAIL", flush=True)
    peers = bench.peer_kernels(gqa=True)
    for d in dims:
        for (b, h, hk, sk), parts in EDGES if a.edges else FILL if a.fill else NEXT if a.next else CELLS:
            ks = {"api": peers["dhpfa"]}
            ks.update({f"m{p}": run(p, True) for p in parts})
            ks["cudnn"] = peers["sdpa_cudnn"]
            time_cell(ks, gen, (b, h, hk, sk, d), a.rounds)


if __name__ == "__main__":
    main()
