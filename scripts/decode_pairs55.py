"""Session 55: where the swapped-GEMM decode rule has gaps (call 2: D=64 with 4 pairs lost to the forward kernels,
(1,32,4,1,32768,64) 18.88 / 18.13 us, cuDNN 15.36; 5-7 pairs never timed): the forward kernels' packed tiles (the API
with variants.SWAP_DECODE off), the swap kernel at 16 and 32 parts (sm90_decode.decode) and cuDNN, CUDA-graph replay
in interleaved rounds (medians, us); float64 checks of the 32-part runs first.

    PYTHONPATH=src:scripts python3 scripts/decode_pairs55.py [--rounds 7]
"""
import argparse
import statistics

import torch

from dhpfa.kernels import variants
from dhpfa.measure import bench
from dhpfa.measure.bench import interleaved_ms
from decode_swap_ab import check, run_decode
from small_tiles import patched_call

CASES = [(1, 32, 4, 16384, 64), (1, 32, 4, 32768, 64), (1, 32, 4, 65536, 64), (1, 40, 5, 32768, 64),
         (1, 48, 6, 32768, 64), (1, 56, 7, 32768, 64), (1, 32, 8, 32768, 64), (1, 40, 5, 32768, 128),
         (1, 48, 6, 32768, 128), (1, 56, 7, 16384, 128), (1, 32, 4, 16384, 128)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    a = ap.parse_args()
    gen = torch.Generator(device="cuda").manual_seed(5)
    for b, h, hk, sk, d in CASES[:3]:
        err, lse_err, finite = check(b, h, hk, sk + 3, d, torch.bfloat16, (32, 128, 3), gen)
        print("check p32", (b, h, hk, sk + 3, d), f"err {err:.2e} lse {lse_err:.2e} finite {finite}",
              "OK" if err < 1e-2 and lse_err < 1e-2 and finite else "FAIL", flush=True)
    peers = bench.peer_kernels(gqa=True)
    for b, h, hk, sk, d in CASES:
        ks = {"fwd": patched_call(peers["dhpfa"], variants, "SWAP_DECODE", False), "p16": run_decode((16, 128, 3)),
              "p32": run_decode((32, 128, 3)), "cudnn": peers["sdpa_cudnn"]}
        sets = [(torch.randn(b, h, 1, d, device="cuda", dtype=torch.bfloat16, generator=gen),
                 *(torch.randn(b, hk, sk, d, device="cuda", dtype=torch.bfloat16, generator=gen) for _ in range(2)))
                for _ in range(3)]
        t = interleaved_ms(ks, sets, False, rounds=a.rounds, graph=True, batch_ms=5.0)
        print((b, h, hk, 1, sk, d), f"rule {variants.swap_decode_parts(d, b, h, hk, sk, 132)}",
              "  ".join(f"{n} {statistics.median(v) * 1000:.2f}" for n, v in t.items()), flush=True)


if __name__ == "__main__":
    main()
