"""Session 58 call 3: why attn_decode_sm90_split lost at (1,14,2,1,262144,128) (call 2: 68.93 us against 68.10 for the
one-program merge) while it won 0.4-1.1 us elsewhere. Forms, in graph replay, interleaved rounds (medians, us): the
shipped split (16 slices, cooperative), the same launched without the cooperative attribute (an idle GPU runs every
program at once anyway), with a nanosleep backoff between polls, 8 slices; the one-program merge without and with the
cooperative attribute; cuDNN. float64 checks of the forms first.

    PYTHONPATH=src:scripts python3 scripts/decode_split_ab58.py [--rounds 9] [--final | --rows]
"""
import argparse

import torch

from dhpfa.kernels import sm90_decode, variants
from dhpfa.measure import bench
from dhpfa.reference import attention_ref
from decode_merge56 import time_cell

FORMS = {"split": (None, None), "split_nc": (None, {"launch_cooperative_grid": False}),
         "split_bo": (None, {"BACKOFF": 256}), "split8": (8, None), "one": (0, None),
         "one_c": (0, {"launch_cooperative_grid": True})}
# --final (call 4, with variants.SWAP_DECODE_SPLIT at 8): the shipped choice, 16 slices, the one-program merge
FINAL = {"ship": (None, None), "split16": (16, None), "one": (0, None)}
# --rows (call 6): _merge_slice with its warps along the query heads (WARP_ROWS, shipped) against calls 2-4's form
ROWS = {"ship": (None, None), "cols": (None, {"WARP_ROWS": False}), "one": (0, None)}
CELLS_8 = [(2, 32, 8, 4096, 64), (2, 32, 8, 16384, 128)]  # 8 parts: the split takes them from 8 slices
CELLS = [(1, 14, 2, 262144, 128), (1, 16, 2, 65536, 128), (1, 16, 2, 65536, 64), (1, 32, 4, 32768, 128),
         (1, 32, 8, 16384, 128), (1, 32, 4, 16384, 64), (1, 14, 2, 262144, 64)]


def run(parts, split, extra):
    def fn(q, k, v, causal=False):
        return sm90_decode.decode(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), parts=parts, merged=True,
                                  split=split, extra=extra)[0]
    return fn


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--final", action="store_true", help="FINAL's forms at CELLS_8 and CELLS, no checks")
    ap.add_argument("--rows", action="store_true", help="ROWS's forms at CELLS")
    a = ap.parse_args()
    forms = FINAL if a.final else ROWS if a.rows else FORMS
    gen = torch.Generator(device="cuda").manual_seed(583)
    ok = True
    for b, h, hk, sk, d, parts in () if a.final else ((1, 16, 2, 20011, 128, 32), (1, 16, 2, 30001, 64, 64),
                                                        (1, 32, 4, 16383, 128, 16)):
        q = torch.randn(b, 1, h, d, device="cuda", dtype=torch.bfloat16, generator=gen)
        k, v = (torch.randn(b, sk, hk, d, device="cuda", dtype=torch.bfloat16, generator=gen) for _ in range(2))
        ref, _ = attention_ref(q, k, v, d ** -0.5)
        for name, (split, extra) in forms.items():
            out, _ = sm90_decode.decode(q, k, v, parts=parts, poison=True, merged=True, split=split, extra=extra)
            err = ((out.double().cpu() - ref).norm() / ref.norm()).item()
            ok &= err < 1e-2 and bool(torch.isfinite(out).all())
            print("check", (b, h, hk, sk, d), parts, name, f"err {err:.2e}", flush=True)
    print("checks", "OK" if ok else "FAIL", flush=True)
    peers = bench.peer_kernels(gqa=True)
    for cell in (CELLS_8 + CELLS) if a.final else CELLS:
        b, h, hk, sk, d = cell
        p = variants.swap_decode_parts(d, b, h, hk, sk, 132)
        ks = {name: run(p, split, extra) for name, (split, extra) in forms.items()
              if split is None or split <= sm90_decode.decode_parts(sk, p, 128)[0]}
        ks["cudnn"] = peers["sdpa_cudnn"]
        time_cell(ks, gen, cell, a.rounds, f"parts {p}")


if __name__ == "__main__":
    main()
