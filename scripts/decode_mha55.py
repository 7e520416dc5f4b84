"""Session 55 (an experiment for the next session; the API does not route these): batch-heavy MHA decode, where the
forward kernels trail cuDNN by 1-3% (session 54 call 3's wide3 sweep: (32,32,1,2048) D=64 124.5 / 123.4 us, D=128 244.3
/ 242.4; (64,16,1,1024) 65.3 / 64.4 and 129.4 / 125.7), on the swapped-GEMM decode kernel with groups of one (one real
column of NQ = 8) at 1-2 parts: float64 checks first, then CUDA-graph replay in interleaved rounds (medians, us).

    PYTHONPATH=src:scripts python3 scripts/decode_mha55.py [--rounds 7]
"""
import argparse
import statistics

import torch

from dhpfa.measure import bench
from dhpfa.measure.bench import interleaved_ms
from decode_swap_ab import check, run_decode

CASES = [(32, 32, 32, 2048, 64), (32, 32, 32, 2048, 128), (64, 16, 16, 1024, 64), (64, 16, 16, 1024, 128),
         (16, 32, 32, 4096, 128), (8, 32, 32, 8192, 128), (4, 32, 32, 16384, 128)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    a = ap.parse_args()
    gen = torch.Generator(device="cuda").manual_seed(7)
    for b, h, hk, sk, d in CASES[:2]:
        for parts in (1, 2):
            err, lse_err, finite = check(b, h, hk, sk + 5, d, torch.bfloat16, (parts, 128, 3), gen)
            print(f"check p{parts}", (b, h, hk, sk + 5, d), f"err {err:.2e} lse {lse_err:.2e} finite {finite}",
                  "OK" if err < 1e-2 and lse_err < 1e-2 and finite else "FAIL", flush=True)
    peers = bench.peer_kernels(gqa=False)
    for b, h, hk, sk, d in CASES:
        ks = {"api": peers["dhpfa"], "p1": run_decode((1, 128, 3)), "p2": run_decode((2, 128, 3)),
              "cudnn": peers["sdpa_cudnn"]}
        sets = [(torch.randn(b, h, 1, d, device="cuda", dtype=torch.bfloat16, generator=gen),
                 *(torch.randn(b, hk, sk, d, device="cuda", dtype=torch.bfloat16, generator=gen) for _ in range(2)))
                for _ in range(2)]
        t = interleaved_ms(ks, sets, False, rounds=a.rounds, graph=True, batch_ms=5.0)
        print((b, h, hk, 1, sk, d), "  ".join(f"{n} {statistics.median(v) * 1000:.2f}" for n, v in t.items()),
              flush=True)


if __name__ == "__main__":
    main()
