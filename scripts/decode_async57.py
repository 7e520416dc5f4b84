"""Session 57: the merged decode kernel's merge from shared memory (sm90_decode._merge_parts ASYNC: every round's
states copied at once with cp.async, each round merged as its copies land; LSEs in one load). Call 4's stamps
(decode_stamps57.py) put the merge at 6,400 cycles for 32 parts at D=128 (four rounds of 8, about 1,600 each) and
5,900 for 64 at D=64, the arrival at 2,500-3,900 more, against a main loop of 13,000-31,000. float64 checks first
(poisoned, odd key counts, bitwise repeats), then CUDA-graph replay in interleaved rounds (medians, us): the shipped
build, the async forms, cuDNN.

    PYTHONPATH=src:scripts python3 scripts/decode_async57.py [--rounds 7]
"""
import argparse

import torch

from dhpfa.kernels import variants
from dhpfa.measure import bench
from decode_merge56 import check_forms, run, time_cell

# name: (MAX_PARTS, CHUNK, PREFETCH, ASYNC) per head dim (None: the shipped build)
FORMS = {64: {"ship": None, "a16": (64, 16, False, True), "a32": (64, 32, False, True)},
         128: {"ship": None, "a8": (32, 8, False, True), "a16": (32, 16, False, True)}}
CELLS = [(2, 32, 8, 4096, 64), (1, 32, 8, 16384, 64), (1, 32, 4, 16384, 64), (1, 16, 2, 65536, 64),
         (1, 16, 2, 131072, 64), (1, 32, 8, 16384, 128), (2, 32, 8, 16384, 128), (1, 32, 4, 32768, 128),
         (1, 16, 2, 65536, 128), (1, 16, 2, 131072, 128)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    a = ap.parse_args()
    gen = torch.Generator(device="cuda").manual_seed(57)
    ok = check_forms(FORMS, lambda d: ((2, 32, 8, 4099, 8), (1, 32, 4, 30001, 32 if d == 64 else 16),
                                       (3, 40, 5, 777, 3), (1, 16, 2, 65541, 64 if d == 64 else 32),
                                       (1, 16, 2, 20000, 23)), gen)
    print("checks", "OK" if ok else "FAIL", flush=True)
    peers = bench.peer_kernels(gqa=True)
    for cell in CELLS:
        b, h, hk, sk, d = cell
        p = variants.swap_decode_parts(d, b, h, hk, sk, 132)
        ks = {n: run(p, True, cfg) for n, cfg in FORMS[d].items()}
        ks["cudnn"] = peers["sdpa_cudnn"]
        time_cell(ks, gen, cell, a.rounds, f"parts {p}")


if __name__ == "__main__":
    main()
