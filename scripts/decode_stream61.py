"""Session 61: the flat-schedule decode kernel (sm90_decode.attn_decode_sm90_stream: N programs, each a contiguous range
of the call's blocks across pairs, pieces merged in the launch) against the API (with SWAP_DECODE_OVER) and cuDNN at
pair counts around and past the SMs' count. float64 checks first (odd key counts, 2-4 pieces a pair, outputs poisoned,
two launches bitwise equal), then CUDA-graph replay in interleaved rounds (medians, us).

    PYTHONPATH=src:scripts python3 scripts/decode_stream61.py [--rounds 7] [--dims 64,128] [--keys 1024,2048,4096,16384]
"""
import argparse
import statistics

import torch

from dhpfa.kernels import dispatch, sm90_decode
from dhpfa.measure import bench
from dhpfa.measure.bench import interleaved_ms
from dhpfa.reference import attention_ref
from decode_merge56 import input_sets


def check(b, h, hk, sk, d, n_prog, gen):
    q = torch.randn(b, 1, h, d, device="cuda", dtype=torch.bfloat16, generator=gen)
    k, v = (torch.randn(b, sk, hk, d, device="cuda", dtype=torch.bfloat16, generator=gen) for _ in range(2))
    ref, ref_lse = attention_ref(q, k, v, d ** -0.5)
    out, lse = sm90_decode.stream_decode(q, k, v, n_prog, poison=True)
    out2, lse2 = sm90_decode.stream_decode(q, k, v, n_prog, poison=True)
    torch.cuda.synchronize()
    err = ((out.double().cpu() - ref).norm() / ref.norm()).item()
    per_head = ((out.double().cpu() - ref).norm(dim=-1) / ref.norm(dim=-1)).max().item()
    lse_err = (lse.double().cpu()[..., 0] - ref_lse[..., 0]).abs().max().item()
    same = torch.equal(out, out2) and torch.equal(lse, lse2)
    ok = err < 1e-2 and per_head < 5e-2 and lse_err < 1e-2 and bool(torch.isfinite(out).all()) and same
    pieces = sm90_decode.stream_pieces(b, hk, sk, n_prog)
    print("check", (b, h, hk, sk, d), f"programs {n_prog} pieces {pieces}",
          f"err {err:.2e} head {per_head:.2e} lse {lse_err:.2e} repeat-equal {same}", "OK" if ok else "FAIL", flush=True)
    return ok


def stream_fn(n_prog, tail=False):
    def f(q, k, v, causal=False):  # SDPA's layout
        return sm90_decode.stream_decode(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), n_prog,
                                         tail=tail)[0]
    return f


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--dims", default="64,128")
    ap.add_argument("--keys", default="1024,2048,4096,16384")
    ap.add_argument("--batches", default="32,34,40,50,66,68,100,128")
    a = ap.parse_args()
    gen = torch.Generator(device="cuda").manual_seed(61)
    dims = [int(x) for x in a.dims.split(",")]
    sms = dispatch.sm_count(torch.device("cuda"))
    ok = True
    for d in dims:
        for b, h, hk, sk, n in ((16, 32, 8, 1023, sms), (34, 32, 4, 4097, sms), (33, 32, 4, 129, sms),
                                (5, 28, 4, 3001, 7), (9, 32, 4, 1000, sms), (100, 32, 4, 1, sms), (17, 64, 8, 2050, sms),
                                *(((32, 32, 4, 515, 2 * sms), (40, 32, 4, 20000, 2 * sms)) if d == 64 else ())):
            ok &= check(b, h, hk, sk, d, n, gen)
    print("checks", "OK" if ok else "FAIL", flush=True)
    peers = bench.peer_kernels(gqa=True)
    for d in dims:
        for sk in (int(x) for x in a.keys.split(",")):
            for b in (int(x) for x in a.batches.split(",")):
                ks = {"api": peers["dhpfa"], "stream": stream_fn(sms)}
                if d == 64:
                    ks["stream2"] = stream_fn(2 * sms)
                ks["cudnn"] = peers["sdpa_cudnn"]
                sets = input_sets(gen, b, 32, 4, sk, d, 2 if b * sk >= 32 * 16384 else 3)
                t = interleaved_ms(ks, sets, False, rounds=a.rounds, graph=True, batch_ms=5.0)
                med = {n: statistics.median(v) * 1000 for n, v in t.items()}
                print((b, 32, 4, 1, sk, d), f"pairs {b * 4}", "  ".join(f"{n} {u:.2f}" for n, u in med.items()),
                      f"  stream x{med['api'] / med['stream']:.3f} of api, x{med['cudnn'] / med['stream']:.3f} of cudnn",
                      flush=True)
                del sets
                torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
