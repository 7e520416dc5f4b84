"""Session 56: the merged decode kernel's merge in rounds of CHUNK parts with 16-byte loads
(sm90_decode._merge_parts; session 55's form loaded every part at once, a column a thread: 2,600 instructions and 255
registers at D=64, where it lost to the combine's second launch) against the combine and cuDNN; and two / three
(sequence, key/value head) pairs on the swap kernel at 32-64 parts (the rule sends them to the forward kernels: the
largest decode gap to cuDNN, x0.87-0.91 at (1,16,2,1,65536,128)). float64 checks first (outputs and LSE poisoned,
odd key counts), then CUDA-graph replay in interleaved rounds (medians, us).

    PYTHONPATH=src:scripts python3 scripts/decode_merge56.py [--rounds 7]
"""
import argparse
import statistics

import torch

from dhpfa.kernels import sm90_decode, variants
from dhpfa.measure import bench
from dhpfa.measure.bench import interleaved_ms
from dhpfa.reference import attention_ref


def run(parts, merged, cfg=None):
    def fn(q, k, v, causal=False):  # SDPA's layout, as the peers take
        return sm90_decode.decode(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), parts=parts,
                                  merged=merged, merge_cfg=cfg)[0]
    return fn


def check(b, h, hk, sk, d, parts, merged, cfg, gen, block_n=128, stages=3, even=False, split=None):
    q = torch.randn(b, 1, h, d, device="cuda", dtype=torch.bfloat16, generator=gen)
    k, v = (torch.randn(b, sk, hk, d, device="cuda", dtype=torch.bfloat16, generator=gen) for _ in range(2))
    ref, ref_lse = attention_ref(q, k, v, d ** -0.5)
    out, lse = sm90_decode.decode(q, k, v, parts=parts, block_n=block_n, stages=stages, poison=True, merged=merged,
                                  merge_cfg=cfg, even=even, split=split)
    out2, lse2 = sm90_decode.decode(q, k, v, parts=parts, block_n=block_n, stages=stages, poison=True, merged=merged,
                                    merge_cfg=cfg, even=even, split=split)
    torch.cuda.synchronize()
    err = ((out.double().cpu() - ref).norm() / ref.norm()).item()
    lse_err = (lse.double().cpu()[..., 0] - ref_lse[..., 0]).abs().max().item()
    same = torch.equal(out, out2) and torch.equal(lse, lse2)
    ok = err < 1e-2 and lse_err < 1e-2 and bool(torch.isfinite(out).all()) and same
    print("check", (b, h, hk, sk, d), parts, "merged" if merged else "combine", cfg, "even" if even else "",
          "" if (block_n, stages) == (128, 3) else f"block_n {block_n} stages {stages}",
          f"err {err:.2e} lse {lse_err:.2e} repeat-equal {same}", "OK" if ok else "FAIL", flush=True)
    return ok


def check_forms(forms, cases, gen):
    """check() of every merged build in forms ({head dim: {name: cfg, None for the shipped build}}, the shipped ones
    skipped) at cases(d): (B, H, H_kv, S_k, parts) tuples; True where all pass."""
    ok = True
    for d, named in forms.items():
        for cfg in named.values():
            if cfg is not None:
                for b, h, hk, sk, parts in cases(d):
                    ok &= check(b, h, hk, sk, d, parts, True, cfg, gen)
    return ok


def input_sets(gen, b, h, hk, sk, d, n=3):
    """n (three) bf16 input sets in SDPA's layout (the peers' and run()'s)."""
    return [(torch.randn(b, h, 1, d, device="cuda", dtype=torch.bfloat16, generator=gen),
             *(torch.randn(b, hk, sk, d, device="cuda", dtype=torch.bfloat16, generator=gen) for _ in range(2)))
            for _ in range(n)]


def time_cell(ks, gen, cell, rounds, label="", n_sets=3):
    """Print the medians (us) of kernels ks at cell (B, H, H_kv, S_k, D) in graph replay, interleaved rounds, over
    n_sets input sets."""
    b, h, hk, sk, d = cell
    t = interleaved_ms(ks, input_sets(gen, b, h, hk, sk, d, n_sets), False, rounds=rounds, graph=True, batch_ms=5.0)
    print((b, h, hk, 1, sk, d), label, "  ".join(f"{n} {statistics.median(v) * 1000:.2f}" for n, v in t.items()),
          flush=True)


# (B, H, H_kv, S_k, D): the rule's swap cells (parts from variants.swap_decode_parts)
RULE = [(2, 32, 8, 4096, 64), (2, 32, 8, 8192, 64), (1, 32, 8, 16384, 64), (1, 32, 4, 16384, 64),
        (1, 32, 4, 32768, 64), (1, 32, 8, 16384, 128), (1, 32, 8, 65536, 128), (2, 32, 8, 16384, 128),
        (1, 32, 4, 32768, 128)]
# two / three pairs: parts tried
FEW = [((1, 16, 2, 65536, 128), (32, 64)), ((1, 16, 2, 32768, 128), (32, 64)), ((1, 16, 2, 65536, 64), (32, 64)),
       ((1, 24, 3, 65536, 128), (32, 44))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    a = ap.parse_args()
    gen = torch.Generator(device="cuda").manual_seed(56)
    ok = True
    for d in (64, 128):
        for chunk in (8, 16):
            for b, h, hk, sk, parts in ((2, 32, 8, 4099, 8), (1, 32, 8, 16387, 16), (1, 32, 4, 30001, 32 // (d // 64)),
                                        (3, 40, 5, 777, 3)):
                ok &= check(b, h, hk, sk, d, parts, True, (variants.SWAP_DECODE_MERGE_PARTS[d], chunk, False), gen)
    for (b, h, hk, sk, d), ps in FEW:
        for p in ps:
            ok &= check(b, h, hk, sk + 5, d, p, True, (64, 8, False), gen)
            ok &= check(b, h, hk, sk + 5, d, p, False, None, gen)
    print("checks", "OK" if ok else "FAIL", flush=True)
    peers = bench.peer_kernels(gqa=True)
    for b, h, hk, sk, d in RULE:
        p = variants.swap_decode_parts(d, b, h, hk, sk, 132)
        mp = variants.SWAP_DECODE_MERGE_PARTS[d]
        ks = {"api": peers["dhpfa"], "combine": run(p, False), "m8": run(p, True, (mp, 8, False)),
              "m16": run(p, True, (mp, 16, False)), "cudnn": peers["sdpa_cudnn"]}
        time_cell(ks, gen, (b, h, hk, sk, d), a.rounds, f"parts {p}")
    for cell, ps in FEW:
        ks = {"api": peers["dhpfa"], "cudnn": peers["sdpa_cudnn"]}
        for p in ps:
            ks[f"c{p}"] = run(p, False)
            ks[f"m{p}"] = run(p, True, (64, 8, False))
        time_cell(ks, gen, cell, a.rounds)


if __name__ == "__main__":
    main()
