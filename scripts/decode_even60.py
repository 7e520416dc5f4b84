"""Session 60: float64 checks of the swap decode kernel's even parts (sm90_decode.decode_parts(even): nb // n blocks a
part, the last nb % n one more) and session 54's equal parts, one binary, at key counts where the equal parts ran fewer
parts, in all three forms (the combine's second launch, the one-program merge, the split merge), outputs poisoned, two
launches bitwise equal.
--time: the even parts against session 54's equal parts, both launched alike (sm90_decode.decode with the rule's parts
and merge; even=True / False), beside the API and cuDNN, in CUDA-graph replay (interleaved rounds, medians, us): call
2's rule_check read the API 4% ahead of its patched form at a count where both forms are the same launch, so this A/B
launches both through one path. --fill: the fill rule's next edges (the merged kernel at the parts given against the API
and cuDNN): D=128 28-30 pairs between 1,024 and 4,096 keys and 5-6 pairs past 8,192, D=64 56-64 pairs at 8,192.

    PYTHONPATH=src:scripts python3 scripts/decode_even60.py [--time [--rounds 9]] [--fill]
"""
import argparse

import torch

from dhpfa.kernels import dispatch, sm90_decode, variants
from dhpfa.measure import bench
from decode_merge56 import check, time_cell

# (B, H, H_kv, S_k, parts, merged)
CASES = [(1, 32, 8, 2049, 16, True), (1, 32, 8, 4097, 16, True), (1, 32, 8, 8193, 16, True),
         (2, 32, 8, 2049, 8, True), (2, 32, 8, 4097, 8, True), (1, 32, 8, 4097, 16, False), (3, 32, 8, 5000, 5, False),
         (1, 32, 4, 16385, 32, True), (2, 24, 3, 4097, 20, True), (1, 32, 8, 129, 16, True), (1, 32, 8, 1, 16, True),
         (1, 16, 2, 33000, 32, True), (1, 16, 2, 65537, 64, True)]


# --time: (B, H, H_kv, S_k, D): odd counts where the equal parts ran fewer parts; 4,096 keys (the same launch both ways)
# and (4,32,8,1,2049) (4 parts both ways, the longest part 5 blocks in both) as controls
TIME = [(1, 32, 8, sk, d) for d in (64, 128) for sk in (2049, 4097, 8193)] + \
       [(1, 32, 4, sk, 128) for sk in (2049, 4097, 8193)] + [(2, 32, 8, sk, d) for d in (64, 128) for sk in (2049, 4097)] + \
       [(1, 32, 4, 16385, 64), (1, 16, 2, 65537, 64), (2, 24, 3, 4097, 64), (1, 32, 8, 4096, 128), (4, 32, 8, 2049, 128)]

# --binary: (B, H, H_kv, S_k, D)
BINARY = [(1, 32, 8, 4097, 128), (2, 32, 8, 2049, 128), (1, 32, 8, 8193, 64), (4, 32, 8, 2049, 128),
          (1, 32, 8, 4096, 128), (2, 32, 8, 4097, 64), (1, 32, 4, 4097, 128), (1, 16, 2, 65537, 64)]

# --fill: ((B, H, H_kv, S_k, D), parts tried)
FILL = [((7, 32, 4, sk, 128), (4,)) for sk in (1024, 2048, 3000)] + [((5, 30, 6, 2048, 128), (4,)),
        ((2, 24, 3, 12000, 128), (22,)), ((2, 24, 3, 16384, 128), (22,)), ((1, 40, 5, 16384, 128), (26,)),
        ((7, 32, 8, 8192, 64), (2,)), ((8, 32, 8, 8192, 64), (2,)), ((8, 32, 8, 16384, 64), (2,)),
        ((1, 32, 4, 2048, 64), (32,)), ((1, 32, 4, 12000, 64), (32,))]


def rule_fn(parts, merged, even):
    def fn(q, k, v, causal=False):  # SDPA's layout
        return sm90_decode.decode(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), parts=parts, merged=merged,
                                  even=even)[0]
    return fn


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--time", action="store_true")
    ap.add_argument("--fill", action="store_true")
    ap.add_argument("--binary", action="store_true")
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--sets", type=int, default=3, help="input sets a cell (--time)")
    a = ap.parse_args()
    gen = torch.Generator(device="cuda").manual_seed(60)
    if a.binary:
        from dhpfa.kernels import _ab_s59decode as old
        peers = bench.peer_kernels(gqa=True)
        sm = dispatch.sm_count(torch.device("cuda"))
        for b, h, hk, sk, d in BINARY:
            parts = variants.swap_decode_parts(d, b, h, hk, sk, sm)
            merged = variants.swap_decode_merged(d, parts)

            def s59(q, k, v, causal=False, parts=parts, merged=merged):
                return old.decode(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), parts=parts,
                                  merged=merged)[0]
            ks = {"api": peers["dhpfa"], "s59": s59, "equal": rule_fn(parts, merged, False),
                  "even": rule_fn(parts, merged, True), "cudnn": peers["sdpa_cudnn"]}
            time_cell(ks, gen, (b, h, hk, sk, d), a.rounds, f"(parts {parts})")
        return 0
    if a.time or a.fill:
        peers = bench.peer_kernels(gqa=True)
        sm = dispatch.sm_count(torch.device("cuda"))
        for b, h, hk, sk, d in TIME if a.time else ():
            parts = variants.swap_decode_parts(d, b, h, hk, sk, sm)
            if not parts:
                print((b, h, hk, 1, sk, d), "not a swap cell", flush=True)
                continue
            merged = variants.swap_decode_merged(d, parts)
            n_even, n_equal = (sm90_decode.decode_parts(sk, parts, 128, e)[0] for e in (True, False))
            ks = {"api": peers["dhpfa"], f"even{n_even}": rule_fn(parts, merged, True),
                  f"equal{n_equal}": rule_fn(parts, merged, False), "cudnn": peers["sdpa_cudnn"]}
            time_cell(ks, gen, (b, h, hk, sk, d), a.rounds, "" if a.sets == 3 else f"{a.sets} sets", a.sets)
        for (b, h, hk, sk, d), tried in FILL if a.fill else ():
            ks = {"api": peers["dhpfa"], **{f"m{p}": rule_fn(p, True, variants.swap_decode_even(b * hk, p, sm))
                                            for p in tried},
                  "cudnn": peers["sdpa_cudnn"]}
            time_cell(ks, gen, (b, h, hk, sk, d), a.rounds, f"(rule: {variants.swap_decode_parts(d, b, h, hk, sk, sm)})")
        return 0
    ok = True
    for d in (64, 128):
        for b, h, hk, sk, parts, merged in CASES:
            if parts > variants.SWAP_DECODE_MERGE_PARTS[d] and merged:
                continue
            for even in (True, False):
                n, _ = sm90_decode.decode_parts(sk, parts, 128, even)
                split = variants.swap_decode_split(d, n) if merged else 0
                print(f"parts {n}{' split ' + str(split) if split else ''}", end="  ")
                ok &= check(b, h, hk, sk, d, parts, merged, None, gen, even=even)
    print("checks", "OK" if ok else "FAIL", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
