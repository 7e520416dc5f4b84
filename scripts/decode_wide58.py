"""Session 58: the merged decode kernel's arrival with the done-words read a word a thread (sm90_decode._done_asm wide,
variants.SWAP_DECODE_MERGE_WIDE) against session 57's, where thread 0 reads them all (call 11's stamps: ~800 cycles
at 16 parts, ~1,500 at 64, and ~630 for the acquire fence and barrier). float64 checks of both forms (poisoned, odd
key counts, bitwise repeats), the two forms' outputs bitwise equal, a stress of repeated launches (out poisoned
before each; every launch must merge and give the first launch's bits), then CUDA-graph replay in interleaved rounds
(medians, us): the shipped build, session 57's arrival, cuDNN.

    PYTHONPATH=src:scripts python3 scripts/decode_wide58.py [--rounds 9] [--stress 400]
"""
import argparse

import torch

from dhpfa.kernels import sm90_decode, variants
from dhpfa.measure import bench
from decode_merge56 import check_forms, run, time_cell

SERIAL = {64: (64, 16, False, True, False), 128: (32, 8, False, True, False)}
WIDE = {64: (64, 16, False, True, True), 128: (32, 8, False, True, True)}
FORMS = {d: {"ship": None, "serial": SERIAL[d]} for d in (64, 128)}
CELLS = [(2, 32, 8, 4096, 64), (1, 32, 4, 16384, 64), (1, 16, 2, 65536, 64), (1, 14, 2, 262144, 64),
         (1, 32, 8, 16384, 128), (2, 32, 8, 16384, 128), (1, 16, 2, 65536, 128), (1, 14, 2, 262144, 128)]


def same_bits(gen):
    """The two arrivals' outputs are bitwise equal (the merge is the same code, whichever program runs it)."""
    ok = True
    for b, h, hk, sk, d, parts in ((1, 16, 2, 65541, 64, 64), (1, 32, 8, 16387, 128, 16), (3, 40, 5, 777, 128, 3),
                                   (1, 16, 2, 30001, 128, 32)):
        q = torch.randn(b, 1, h, d, device="cuda", dtype=torch.bfloat16, generator=gen)
        k, v = (torch.randn(b, sk, hk, d, device="cuda", dtype=torch.bfloat16, generator=gen) for _ in range(2))
        outs = [sm90_decode.decode(q, k, v, parts=parts, poison=True, merged=True, merge_cfg=cfg[d])
                for cfg in (SERIAL, WIDE)]
        eq = torch.equal(outs[0][0], outs[1][0]) and torch.equal(outs[0][1], outs[1][1])
        print("same bits", (b, h, hk, sk, d), parts, eq, flush=True)
        ok &= eq
    return ok


def stress(gen, n):
    """n launches of the shipped merged build at a shape, out and LSE poisoned before each: every one must give the
    first's bits (a launch where no program merged leaves NaN; one that merged early, stale states)."""
    ok = True
    for b, h, hk, sk, d, parts in ((1, 16, 2, 8192, 64, 64), (1, 32, 8, 4096, 128, 16), (1, 16, 2, 16384, 128, 32)):
        q = torch.randn(b, 1, h, d, device="cuda", dtype=torch.bfloat16, generator=gen)
        k, v = (torch.randn(b, sk, hk, d, device="cuda", dtype=torch.bfloat16, generator=gen) for _ in range(2))
        first = sm90_decode.decode(q, k, v, parts=parts, poison=True, merged=True)
        bad = 0
        for _ in range(n):
            o, lse = sm90_decode.decode(q, k, v, parts=parts, poison=True, merged=True)
            bad += int(not (torch.equal(o, first[0]) and torch.equal(lse, first[1])))
        print("stress", (b, h, hk, sk, d), parts, f"{n} launches, {bad} differ", flush=True)
        ok &= bad == 0
    return ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--stress", type=int, default=400)
    a = ap.parse_args()
    gen = torch.Generator(device="cuda").manual_seed(58)
    forms = {d: {"wide": WIDE[d], "serial": SERIAL[d]} for d in (64, 128)}
    ok = check_forms(forms, lambda d: ((2, 32, 8, 4099, 8), (1, 32, 4, 30001, 32 if d == 64 else 16),
                                       (3, 40, 5, 777, 3), (1, 16, 2, 65541, 64 if d == 64 else 32),
                                       (1, 16, 2, 20000, 23)), gen)
    ok &= same_bits(gen)
    ok &= stress(gen, a.stress)
    print("checks", "OK" if ok else "FAIL", flush=True)
    peers = bench.peer_kernels(gqa=True)
    for cell in CELLS:
        b, h, hk, sk, d = cell
        p = variants.swap_decode_parts(d, b, h, hk, sk, 132)
        if not p or not variants.swap_decode_merged(d, p):
            print(cell, "not a merged cell", flush=True)
            continue
        ks = {n: run(p, True, cfg) for n, cfg in FORMS[d].items()}
        ks["cudnn"] = peers["sdpa_cudnn"]
        time_cell(ks, gen, cell, a.rounds, f"parts {p}")


if __name__ == "__main__":
    main()
