"""Prepared in session 61 (not run): the stream decode kernel's TAIL build against the shipped one. Call 13's stamps
(decode_stream_stamps61.py) put the stream kernel's fixed cost in its tail: two release stores (each a MEMBAR.ALL.GPU)
and the SC fence ~2,200 cycles, then each pair's words and merge in turn, 4,400 (max 8,400), against 3,800 for the
one-part kernel. TAIL: one release fence before relaxed word stores, one round (a warp ballot) for every pair's words,
pairs of one piece stored at their segment's end with no arrival. float64 checks of the TAIL build over call 6's
schedules and its outputs bitwise equal to the shipped build's (the same arithmetic: a merge of one piece stores the
piece's bits), then CUDA-graph replay in interleaved rounds (medians, us) beside the one-part merged kernel, the API and
cuDNN, at full waves (128 / 264 / 512 pairs, where the stream build lost) and past them.

    PYTHONPATH=src:scripts python3 scripts/decode_stream_tail.py [--rounds 7] [--dims 64,128] [--keys 1024,4096,16384]
"""
import argparse
import statistics

import torch

from dhpfa.kernels import dispatch, sm90_decode
from dhpfa.measure import bench
from dhpfa.measure.bench import interleaved_ms
from dhpfa.reference import attention_ref
from decode_merge56 import input_sets, run
from decode_stream61 import stream_fn

SCHEDULES = ((16, 32, 8, 1023, 1), (34, 32, 4, 4097, 1), (33, 32, 4, 129, 1), (9, 32, 4, 1000, 1), (100, 32, 4, 1, 1),
             (17, 64, 8, 2050, 1), (32, 32, 4, 515, 2), (40, 32, 4, 20000, 2), (128, 32, 4, 1024, 1))


def check(b, h, hk, sk, d, n_prog, gen):
    q = torch.randn(b, 1, h, d, device="cuda", dtype=torch.bfloat16, generator=gen)
    k, v = (torch.randn(b, sk, hk, d, device="cuda", dtype=torch.bfloat16, generator=gen) for _ in range(2))
    ref, ref_lse = attention_ref(q, k, v, d ** -0.5)
    out, lse = sm90_decode.stream_decode(q, k, v, n_prog, poison=True, tail=True)
    out2, lse2 = sm90_decode.stream_decode(q, k, v, n_prog, poison=True, tail=True)
    base, base_lse = sm90_decode.stream_decode(q, k, v, n_prog, poison=True, tail=False)
    torch.cuda.synchronize()
    err = ((out.double().cpu() - ref).norm() / ref.norm()).item()
    lse_err = (lse.double().cpu()[..., 0] - ref_lse[..., 0]).abs().max().item()
    same = torch.equal(out, out2) and torch.equal(lse, lse2)
    as_shipped = torch.equal(out, base) and torch.equal(lse, base_lse)
    ok = err < 1e-2 and lse_err < 1e-2 and bool(torch.isfinite(out).all()) and same and as_shipped
    print("check", (b, h, hk, sk, d), f"programs {n_prog}", f"err {err:.2e} lse {lse_err:.2e} repeat-equal {same}",
          f"bits as the shipped build {as_shipped}", "OK" if ok else "FAIL", flush=True)
    return ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--dims", default="64,128")
    ap.add_argument("--keys", default="1024,4096,16384")
    ap.add_argument("--batches", default="32,34,40,66,100,128")
    a = ap.parse_args()
    gen = torch.Generator(device="cuda").manual_seed(62)
    dims = [int(x) for x in a.dims.split(",")]
    sms = dispatch.sm_count(torch.device("cuda"))
    ok = all(check(b, h, hk, sk, d, per * sms, gen) for d in dims for b, h, hk, sk, per in SCHEDULES)
    print("checks", "OK" if ok else "FAIL", flush=True)
    peers = bench.peer_kernels(gqa=True)
    for d in dims:
        n_prog = (2 if d == 64 else 1) * sms
        for sk in (int(x) for x in a.keys.split(",")):
            for b in (int(x) for x in a.batches.split(",")):
                ks = {"api": peers["dhpfa"], "m1": run(1, True), "stream": stream_fn(n_prog, False),
                      "tail": stream_fn(n_prog, True), "cudnn": peers["sdpa_cudnn"]}
                sets = input_sets(gen, b, 32, 4, sk, d, 2 if b * sk >= 32 * 16384 else 3)
                t = interleaved_ms(ks, sets, False, rounds=a.rounds, graph=True, batch_ms=5.0)
                med = {n: statistics.median(v) * 1000 for n, v in t.items()}
                print((b, 32, 4, 1, sk, d), f"pairs {b * 4}", "  ".join(f"{n} {u:.2f}" for n, u in med.items()),
                      f"  tail x{med['stream'] / med['tail']:.3f} of stream, x{med['cudnn'] / med['tail']:.3f} of cudnn",
                      flush=True)
                del sets
                torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
