"""Prepared in session 56 (not yet run): the merged decode kernel's merge with the next round's loads issued before
this round's sums (sm90_decode._merge_parts PREFETCH; call 2 of session 56 put each round of the merge at about 0.5 us:
(1,32,4,1,16384,64) 32 parts in 4 rounds 10.94 us, in 2 rounds 9.91) against the shipped builds (D=64 rounds of 16,
D=128 rounds of 8) and cuDNN; and two pairs at D=64 merged in 64 parts (rounds of 16, with and without PREFETCH)
against the combine (the shipped path there), and three pairs at D=128 merged in 44 parts. Offline: D=64 CHUNK 16 PREFETCH 166 registers, D=128 CHUNK 8 PREFETCH
255 (no spills), CHUNK 4 PREFETCH 136. float64 checks first (poisoned, odd key counts, bitwise repeats), then
CUDA-graph replay in interleaved rounds (medians, us).

    PYTHONPATH=src:scripts python3 scripts/decode_merge_prefetch.py [--rounds 7]
"""
import argparse

import torch

from dhpfa.kernels import variants
from dhpfa.measure import bench
from decode_merge56 import check, check_forms, run, time_cell

# name: (MAX_PARTS, CHUNK, PREFETCH) per head dim (None: the shipped build)
FORMS = {64: {"ship": None, "pf16": (32, 16, True), "pf8": (32, 8, True)},
         128: {"ship": None, "pf8": (32, 8, True), "pf4": (32, 4, True)}}
CELLS = [(2, 32, 8, 4096, 64), (1, 32, 8, 16384, 64), (1, 32, 4, 16384, 64), (1, 32, 4, 65536, 64),
         (1, 32, 8, 16384, 128), (2, 32, 8, 16384, 128), (1, 32, 4, 32768, 128), (1, 16, 2, 65536, 128)]
TWO_D64 = [(1, 16, 2, 65536, 64), (1, 16, 2, 131072, 64)]
# three pairs (the forward kernels run them: session 56 call 2, (1,24,3,1,65536,128) 33.84 us against cuDNN's 32.58 and
# 34.18 merged in 44 parts, rounds of 8 without PREFETCH)
THREE = [(1, 24, 3, 65536, 128), (1, 24, 3, 131072, 128)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    a = ap.parse_args()
    gen = torch.Generator(device="cuda").manual_seed(57)
    ok = check_forms(FORMS, lambda d: ((2, 32, 8, 4099, 8), (1, 32, 4, 30001, 32 if d == 64 else 16),
                                       (3, 40, 5, 777, 3), (1, 16, 2, 65541, 32)), gen)
    for cfg in ((64, 16, False), (64, 16, True)):
        ok &= check(1, 16, 2, 65541, 64, 64, True, cfg, gen)
    for cfg in ((64, 8, True), (64, 4, True)):
        ok &= check(1, 24, 3, 65541, 128, 44, True, cfg, gen)
    print("checks", "OK" if ok else "FAIL", flush=True)
    peers = bench.peer_kernels(gqa=True)
    for cell in CELLS:
        b, h, hk, sk, d = cell
        p = variants.swap_decode_parts(d, b, h, hk, sk, 132)
        ks = {n: run(p, True, cfg) for n, cfg in FORMS[d].items()}
        ks["cudnn"] = peers["sdpa_cudnn"]
        time_cell(ks, gen, cell, a.rounds, f"parts {p}")
    for cell in TWO_D64:
        ks = {"combine64": run(64, False), "m64r16": run(64, True, (64, 16, False)),
              "m64r16pf": run(64, True, (64, 16, True)), "cudnn": peers["sdpa_cudnn"]}
        time_cell(ks, gen, cell, a.rounds)
    for cell in THREE:
        ks = {"api": peers["dhpfa"], "m44r8": run(44, True, (64, 8, False)), "m44r8pf": run(44, True, (64, 8, True)),
              "m44r4pf": run(44, True, (64, 4, True)), "cudnn": peers["sdpa_cudnn"]}
        time_cell(ks, gen, cell, a.rounds)

if __name__ == "__main__":
    main()
