"""Session 57: where two-pair decode at D=128 spends its time ((1,16,2,1,65536,128): the API 24.36 us against cuDNN's
24.03 in call 2; 67 MB of K and V, 2.8 TB/s): the merged build at 32 and 64 parts, 128- and 64-key blocks (stages 3 / 6),
and the swap kernel alone (its parts unmerged: no combine, no merge; a lower bound on the main loop), against cuDNN.
float64 checks of the merged forms first (poisoned, bitwise repeats), then CUDA-graph replay in interleaved rounds
(medians, us). (Its checks through decode_merge56.check since the session's review: the same cases; the first
form, run in call 3, built them inline.)

    PYTHONPATH=src:scripts python3 scripts/decode_two_pairs57.py [--rounds 7]
"""
import argparse

import torch

from dhpfa.kernels import sm90_decode
from dhpfa.measure import bench
from decode_merge56 import check, time_cell


def merged(parts, block_n=128, stages=3, cfg=None):
    def fn(q, k, v, causal=False):  # SDPA's layout, as the peers take
        return sm90_decode.decode(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), parts=parts,
                                  block_n=block_n, stages=stages, merged=True, merge_cfg=cfg)[0]
    return fn


def alone(parts, block_n=128, stages=3):
    """attn_decode_sm90 alone: the parts' states into a workspace made once (no combine)."""
    ws = {}

    def fn(q, k, v, causal=False):
        q, k, v = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)
        b, _, h, d = q.shape
        n, _ = sm90_decode.decode_parts(k.shape[1], parts, block_n)
        if (q.shape, n) not in ws:
            ws[(q.shape, n)] = (torch.empty(n, b, h, d, device=q.device), torch.empty(n, h, b, device=q.device))
        wo, wl = ws[(q.shape, n)]
        grid, args, kw = sm90_decode.launch_args(q, k, v, wo, wl, d ** -0.5, parts, block_n, stages)
        sm90_decode.attn_decode_sm90[grid](*args, **kw)
        return wo
    return fn


CELLS = [(1, 16, 2, 65536, 128), (1, 16, 2, 131072, 128), (1, 16, 2, 32768, 128)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    a = ap.parse_args()
    gen = torch.Generator(device="cuda").manual_seed(57)
    ok = True
    for parts, bn, st, cfg in ((32, 64, 6, None), (64, 128, 3, (64, 8, True)), (64, 64, 6, (64, 8, True))):
        for b, h, hk, sk in ((1, 16, 2, 65541), (2, 32, 8, 4099)):
            ok &= check(b, h, hk, sk, 128, parts, True, cfg, gen, bn, st)
    print("checks", "OK" if ok else "FAIL", flush=True)
    peers = bench.peer_kernels(gqa=True)
    for cell in CELLS:
        ks = {"m32": merged(32), "m32b64": merged(32, 64, 6), "m64": merged(64, cfg=(64, 8, True)),
              "m64b64": merged(64, 64, 6, (64, 8, True)), "k16": alone(16), "k32": alone(32), "k64": alone(64),
              "k32b64": alone(32, 64, 6), "k64b64": alone(64, 64, 6), "cudnn": peers["sdpa_cudnn"]}
        time_cell(ks, gen, cell, a.rounds)


if __name__ == "__main__":
    main()
