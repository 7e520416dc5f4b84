"""Session 60: float64 checks of the swap decode kernel's even parts (variants.SWAP_DECODE_EVEN: part p of n takes
blocks [p nb // n, (p + 1) nb // n)) at key counts where session 54's equal parts ran fewer parts, in all three forms
(the combine's second launch, the one-program merge, the split merge), outputs poisoned, two launches bitwise equal.

    PYTHONPATH=src:scripts python3 scripts/decode_even60.py
"""
import torch

from dhpfa.kernels import sm90_decode, variants
from decode_merge56 import check

# (B, H, H_kv, S_k, parts, merged)
CASES = [(1, 32, 8, 2049, 16, True), (1, 32, 8, 4097, 16, True), (1, 32, 8, 8193, 16, True),
         (2, 32, 8, 2049, 8, True), (2, 32, 8, 4097, 8, True), (1, 32, 8, 4097, 16, False), (3, 32, 8, 5000, 5, False),
         (1, 32, 4, 16385, 32, True), (2, 24, 3, 4097, 20, True), (1, 32, 8, 129, 16, True), (1, 32, 8, 1, 16, True),
         (1, 16, 2, 33000, 32, True), (1, 16, 2, 65537, 64, True)]


def main():
    assert variants.SWAP_DECODE_EVEN
    gen = torch.Generator(device="cuda").manual_seed(60)
    ok = True
    for d in (64, 128):
        for b, h, hk, sk, parts, merged in CASES:
            if parts > variants.SWAP_DECODE_MERGE_PARTS[d] and merged:
                continue
            n, _ = sm90_decode.decode_parts(sk, parts, 128)
            split = variants.swap_decode_split(d, n) if merged else 0
            print(f"parts {n} (equal parts: {sm90_decode.decode_parts(sk, parts, 128, even=False)[0]})"
                  f"{' split ' + str(split) if split else ''}", end="  ")
            ok &= check(b, h, hk, sk, d, parts, merged, None, gen)
    print("checks", "OK" if ok else "FAIL", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
