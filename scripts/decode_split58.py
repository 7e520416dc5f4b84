"""Session 58: the merged decode kernel's merge spread over the pair's first SWAP_DECODE_SPLIT programs
(sm90_decode.attn_decode_sm90_split, launched cooperative) against one program merging it all
(attn_decode_sm90_merged, session 58's wide arrival). float64 checks (poisoned, odd key counts, bitwise repeats), a
stress of eager launches (out poisoned before each: every launch must give the first's bits) and of CUDA-graph replays
of one nonce (out poisoned between replays: the done-words' value alternates launch to launch), then graph-replay
timings in interleaved rounds (medians, us): the shipped choice, the one-program merge, cuDNN.

    PYTHONPATH=src:scripts python3 scripts/decode_split58.py [--rounds 9] [--stress 300]
"""
import argparse

import torch

from dhpfa.kernels import sm90_decode, variants
from dhpfa.measure import bench
from dhpfa.reference import attention_ref
from decode_merge56 import time_cell

CELLS = [(2, 32, 8, 4096, 64), (1, 32, 4, 16384, 64), (1, 16, 2, 65536, 64), (1, 14, 2, 262144, 64),
         (1, 32, 8, 16384, 128), (2, 32, 8, 16384, 128), (1, 16, 2, 65536, 128), (1, 14, 2, 262144, 128),
         (1, 32, 4, 32768, 128)]


def run(parts, split):
    def fn(q, k, v, causal=False):  # SDPA's layout, as the peers take
        return sm90_decode.decode(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), parts=parts,
                                  merged=True, split=split)[0]
    return fn


def inputs(gen, b, h, hk, sk, d):
    q = torch.randn(b, 1, h, d, device="cuda", dtype=torch.bfloat16, generator=gen)
    k, v = (torch.randn(b, sk, hk, d, device="cuda", dtype=torch.bfloat16, generator=gen) for _ in range(2))
    return q, k, v


def check(gen, b, h, hk, sk, d, parts):
    q, k, v = inputs(gen, b, h, hk, sk, d)
    ref, ref_lse = attention_ref(q, k, v, d ** -0.5)
    res = [sm90_decode.decode(q, k, v, parts=parts, poison=True, merged=True, split=s) for s in (None, None, 0)]
    torch.cuda.synchronize()
    (out, lse), (out2, lse2), (one, one_lse) = res
    err = ((out.double().cpu() - ref).norm() / ref.norm()).item()
    lse_err = (lse.double().cpu()[..., 0] - ref_lse[..., 0]).abs().max().item()
    same = torch.equal(out, out2) and torch.equal(lse, lse2)
    diff = (out.float() - one.float()).abs().max().item()
    n, _ = sm90_decode.decode_parts(sk, parts, 128)
    ok = err < 1e-2 and lse_err < 1e-2 and bool(torch.isfinite(out).all()) and same
    print("check", (b, h, hk, sk, d), parts, "split", variants.swap_decode_split(d, n), f"err {err:.2e} lse "
          f"{lse_err:.2e} repeat-equal {same} max|split - one| {diff:.1e}", "OK" if ok else "FAIL", flush=True)
    return ok


def stress(gen, n):
    ok = True
    for b, h, hk, sk, d, parts in ((1, 16, 2, 8192, 64, 64), (1, 32, 8, 4096, 128, 16), (1, 16, 2, 16384, 128, 32),
                                   (1, 32, 4, 8192, 64, 32)):
        q, k, v = inputs(gen, b, h, hk, sk, d)
        first = sm90_decode.decode(q, k, v, parts=parts, poison=True, merged=True)
        bad = 0
        for _ in range(n):
            o, lse = sm90_decode.decode(q, k, v, parts=parts, poison=True, merged=True)
            bad += int(not (torch.equal(o, first[0]) and torch.equal(lse, first[1])))
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            sm90_decode.decode(q, k, v, parts=parts, merged=True)  # (warm-up off the capture)
        torch.cuda.current_stream().wait_stream(s)
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            go, gl_ = sm90_decode.decode(q, k, v, parts=parts, merged=True)
        gbad = 0
        for _ in range(n):
            go.fill_(float("nan"))
            gl_.fill_(float("nan"))
            g.replay()
            gbad += int(not (torch.equal(go, first[0]) and torch.equal(gl_, first[1])))
        torch.cuda.synchronize()
        print("stress", (b, h, hk, sk, d), parts, f"{n} eager launches, {bad} differ; {n} graph replays, {gbad} differ",
              flush=True)
        ok &= bad == 0 and gbad == 0
    return ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--stress", type=int, default=300)
    a = ap.parse_args()
    gen = torch.Generator(device="cuda").manual_seed(58)
    ok = True
    for d in (64, 128):
        mp = variants.SWAP_DECODE_MERGE_PARTS[d]
        for b, h, hk, sk, parts in ((1, 32, 4, 30001, 16), (1, 16, 2, 65541, mp), (1, 16, 2, 20000, 23),
                                    (2, 32, 8, 16387, 8), (1, 16, 2, 2049, mp), (4, 16, 2, 40000, 16)):
            ok &= check(gen, b, h, hk, sk, d, parts)
    ok &= stress(gen, a.stress)
    print("checks", "OK" if ok else "FAIL", flush=True)
    peers = bench.peer_kernels(gqa=True)
    for cell in CELLS:
        b, h, hk, sk, d = cell
        p = variants.swap_decode_parts(d, b, h, hk, sk, 132)
        if not p or not variants.swap_decode_merged(d, p):
            print(cell, "not a merged cell", flush=True)
            continue
        n, _ = sm90_decode.decode_parts(sk, p, 128)
        ks = {"ship": run(p, None), "one": run(p, 0), "cudnn": peers["sdpa_cudnn"]}
        time_cell(ks, gen, cell, a.rounds, f"parts {p} split {variants.swap_decode_split(d, n)}")


if __name__ == "__main__":
    main()
