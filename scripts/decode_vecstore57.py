"""Session 57: the merged decode kernel's part states stored with 16-byte stores (sm90_decode._store_part VEC_STORE:
O^T moved to a layout of 4 consecutive columns a thread; D=128 2 STG.128 a thread instead of 16 scalar STG) before
the arrival, whose release waits for them (call 6: 2,500-3,900 cycles of arrival). float64 checks first, then CUDA-graph
replay in interleaved rounds (medians, us): the shipped build, VEC_STORE, cuDNN.

    PYTHONPATH=src:scripts python3 scripts/decode_vecstore57.py [--rounds 9]
"""
import argparse

import torch

from dhpfa.kernels import variants
from dhpfa.measure import bench
from decode_merge56 import check, run, time_cell

CELLS = [(2, 32, 8, 4096, 64), (1, 32, 4, 16384, 64), (1, 16, 2, 65536, 64), (1, 32, 8, 16384, 128),
         (1, 32, 4, 32768, 128), (1, 16, 2, 65536, 128)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=9)
    a = ap.parse_args()
    gen = torch.Generator(device="cuda").manual_seed(58)
    ok = True
    for d in (64, 128):
        cfg = variants.swap_decode_merge_build(d) + (True,)
        for b, h, hk, sk, parts in ((2, 32, 8, 4099, 8), (3, 40, 5, 777, 3), (1, 16, 2, 65541, 64 if d == 64 else 32)):
            ok &= check(b, h, hk, sk, d, parts, True, cfg, gen)
    print("checks", "OK" if ok else "FAIL", flush=True)
    peers = bench.peer_kernels(gqa=True)
    for cell in CELLS:
        b, h, hk, sk, d = cell
        p = variants.swap_decode_parts(d, b, h, hk, sk, 132)
        ks = {"ship": run(p, True), "vec": run(p, True, variants.swap_decode_merge_build(d) + (True,)),
              "cudnn": peers["sdpa_cudnn"]}
        time_cell(ks, gen, cell, a.rounds, f"parts {p}")


if __name__ == "__main__":
    main()
