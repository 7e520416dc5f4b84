"""Session 54: the swapped-GEMM decode kernel (kernels/sm90_decode.py, an experiment the API does not dispatch) against
the API and cuDNN on one-query calls: float64 checks (outputs and LSE poisoned before each run), bitwise repeats, then
CUDA-graph replay of many calls (interleaved rounds in random order, medians in us) over its part counts and ring
shapes (block_n x stages).

    PYTHONPATH=src:scripts python3 scripts/decode_swap_ab.py --out DIR [--rounds 9] [--checks-only]
"""
import argparse
import json
import os
import statistics
import time

import torch

import dhpfa
from dhpfa.kernels import sm90_decode
from dhpfa.measure import bench
from dhpfa.measure.bench import interleaved_ms
from dhpfa.reference import attention_ref

# (B, H, H_kv, S_k, D, dtype)
CHECKS = [(1, 32, 8, 1, 128, torch.bfloat16), (1, 32, 8, 100, 128, torch.bfloat16), (1, 32, 8, 4097, 128, torch.bfloat16),
          (2, 32, 8, 30001, 128, torch.bfloat16), (1, 32, 8, 65536, 128, torch.float16),
          (1, 32, 8, 5000, 64, torch.bfloat16), (3, 16, 16, 2049, 128, torch.bfloat16),
          (1, 32, 1, 8191, 128, torch.bfloat16), (2, 28, 4, 3000, 128, torch.bfloat16),
          (1, 16, 2, 777, 64, torch.float16), (4, 8, 1, 1500, 64, torch.bfloat16)]
CONFIGS = {  # name: (parts, block_n, stages)
    "p8": (8, 128, 3), "p16": (16, 128, 3), "p32": (32, 128, 3), "p16n64": (16, 64, 4), "p32n64": (32, 64, 3),
    "p64n64": (64, 64, 3), "p16s2": (16, 128, 2), "p64": (64, 128, 3), "p128n64": (128, 64, 3)}
# (B, H, H_kv, S_k, D): where the API trailed cuDNN in call 3's sweep, and MQA / MHA beside
TIMING = [(1, 32, 8, 4096, 128), (1, 32, 8, 16384, 128), (1, 32, 8, 32768, 128), (1, 32, 8, 65536, 128),
          (1, 32, 8, 16384, 64), (1, 32, 8, 32768, 64), (1, 32, 8, 65536, 64), (2, 32, 8, 4096, 64),
          (2, 32, 8, 16384, 64), (2, 32, 8, 16384, 128), (4, 32, 8, 16384, 128), (1, 32, 1, 16384, 128),
          (8, 32, 8, 4096, 128)]


def run_decode(cfg):
    parts, bn, st = cfg

    def fn(q, k, v, causal=False):  # q (B, H, 1, D), k / v (B, H_kv, S, D): SDPA's layout, as the peers take
        return sm90_decode.decode(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), parts=parts, block_n=bn,
                                  stages=st)[0]
    return fn


def check(b, h, hk, sk, d, dt, cfg, gen):
    q = torch.randn(b, 1, h, d, device="cuda", dtype=dt, generator=gen)
    k, v = (torch.randn(b, sk, hk, d, device="cuda", dtype=dt, generator=gen) for _ in range(2))
    ref, ref_lse = attention_ref(q, k, v, d ** -0.5)
    torch.cuda.synchronize()
    out, lse = sm90_decode.decode(q, k, v, parts=cfg[0], block_n=cfg[1], stages=cfg[2], poison=True)
    torch.cuda.synchronize()
    err = ((out.double().cpu() - ref).norm() / ref.norm()).item()
    lse_err = (lse.double().cpu()[..., 0] - ref_lse[..., 0]).abs().max().item()
    return err, lse_err, bool(torch.isfinite(out).all())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out")
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--checks-only", action="store_true")
    ap.add_argument("--configs", default=",".join(CONFIGS))
    ap.add_argument("--sanitize", action="store_true", help="one call of every config on SDPA-layout inputs (for "
                                                             "compute-sanitizer), then exit")
    args = ap.parse_args()
    if args.sanitize:
        g = torch.Generator(device="cuda").manual_seed(1)
        for b, h, hk, sk, d in ((2, 32, 8, 3001, 128), (1, 32, 1, 16384, 128), (2, 32, 8, 16384, 64)):
            q = torch.randn(b, h, 1, d, device="cuda", dtype=torch.bfloat16, generator=g)
            k, v = (torch.randn(b, hk, sk, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(2))
            for name in args.configs.split(","):
                print(name, (b, h, hk, sk, d), flush=True)
                run_decode(CONFIGS[name])(q, k, v)
                torch.cuda.synchronize()
        print("sanitize done", flush=True)
        return
    os.makedirs(args.out, exist_ok=True)
    t0 = time.time()
    gen = torch.Generator(device="cuda").manual_seed(54)
    checks, ok = [], True
    for c in CHECKS:
        for name in ("p16", "p64n64", "p8"):
            err, lse_err, finite = check(*c, CONFIGS[name], gen)
            good = finite and err < {torch.bfloat16: 1e-2, torch.float16: 2e-3}[c[5]] and lse_err < 1e-3
            ok &= good
            checks.append(dict(case=list(c[:5]), dtype=str(c[5]), config=name, rel_err=err, lse_err=lse_err,
                               good=good))
            if not good:
                print(f"FAIL {name} {c}: rel {err:.2e} lse {lse_err:.2e} finite {finite}", flush=True)
    print(f"correctness: {len(checks)} checks, {'all OK' if ok else 'FAILURES'}; largest rel err "
          f"{max(x['rel_err'] for x in checks):.2e} ({time.time() - t0:.0f} s)", flush=True)
    q = torch.randn(1, 1, 32, 128, device="cuda", dtype=torch.bfloat16, generator=gen)
    k, v = (torch.randn(1, 20000, 8, 128, device="cuda", dtype=torch.bfloat16, generator=gen) for _ in range(2))
    first = sm90_decode.decode(q, k, v, parts=16)[0]
    same = sum(bool(torch.equal(first, sm90_decode.decode(q, k, v, parts=16)[0])) for _ in range(50))
    print(f"bitwise repeats p16 (1,32,8,20000,128): {same}/50", flush=True)
    ok &= same == 50
    res = []
    if not args.checks_only:
        names = args.configs.split(",")
        for b, h, hk, sk, d in TIMING:
            peers = bench.peer_kernels(gqa=h != hk)
            kernels = {"api": peers["dhpfa"], "cudnn": peers["sdpa_cudnn"]}
            kernels.update({n: run_decode(CONFIGS[n]) for n in names})
            g = torch.Generator(device="cuda").manual_seed(b + sk + d)
            sets = [(torch.randn(b, h, 1, d, device="cuda", dtype=torch.bfloat16, generator=g),
                     *(torch.randn(b, hk, sk, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(2)))
                    for _ in range(3)]
            errors = {}
            times = interleaved_ms(kernels, sets, False, rounds=args.rounds, graph=True, batch_ms=5.0, errors=errors)
            us = {n: statistics.median(t) * 1000 for n, t in times.items()}
            best = min((n for n in us if n not in ("api", "cudnn")), key=us.get)
            print(f"({b},{h},{hk},1,{sk},{d}): " + "  ".join(f"{n} {u:.2f}" for n, u in us.items())
                  + f"  | best {best} x{us['api'] / us[best]:.2f} over api, x{us['cudnn'] / us[best]:.2f} over cudnn"
                  + (f"  errors {errors}" if errors else ""), flush=True)
            res.append(dict(case=[b, h, hk, 1, sk, d], us=us, errors=errors))
    with open(os.path.join(args.out, "decode_swap_ab.json"), "w") as f:
        json.dump(dict(device=torch.cuda.get_device_name(), checks=checks, repeats=same, results=res, correct=ok), f,
                  indent=1)
    print(f"elapsed {time.time() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    main()
