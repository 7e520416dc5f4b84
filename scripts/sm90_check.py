"""Device check of the experimental Gluon kernel (kernels/sm90_fwd.py): correctness against float64 on
odd shapes with poisoned outputs, then speed beside the Triton kernel and the SDPA backends.

    PYTHONPATH=src python3 scripts/sm90_check.py --out DIR
"""
import argparse
import json
import os

import torch

from dhpfa.kernels import sm90_fwd
from dhpfa.measure import bench
from dhpfa.reference import attention_ref_rows


PP = dict(warp_specialized=True, split=2, pingpong=True)
CONFIGS = {  # name -> (head dims, sm90_fwd.launch keyword arguments)
    "single_m64n128s2": ((64, 128), dict(block_m=64, block_n=128, stages=2)),
    "ws_m128n128s2": ((64, 128), dict(block_m=128, block_n=128, stages=2, warp_specialized=True)),
    "pp_m128n128s2": ((64, 128), dict(block_m=128, block_n=128, stages=2, **PP)),
    "pp_m128n128s2_p": ((64, 128), dict(block_m=128, block_n=128, stages=2, persistent=True, **PP)),
    "pp_m128n128s3_p": ((64,), dict(block_m=128, block_n=128, stages=3, persistent=True, **PP)),
    "pp_m128n64s3_p": ((64, 128), dict(block_m=128, block_n=64, stages=3, persistent=True, **PP)),
    "pp_m128n64s2": ((256,), dict(block_m=128, block_n=64, stages=2, **PP)),
    "pp_m128n64s2_p": ((256,), dict(block_m=128, block_n=64, stages=2, persistent=True, **PP)),
    # persistent with 7 programs: every program runs many tiles (ring, turns and Q phases across tiles)
    "pp_m128n128s2_p7": ((64, 128), dict(block_m=128, block_n=128, stages=2, persistent=True, num_sms=7, **PP)),
    "pp_m128n64s2_p7": ((256,), dict(block_m=128, block_n=64, stages=2, persistent=True, num_sms=7, **PP)),
}


def check(b, sq, sk, h, hk, d, causal, dtype, tiles, launch=None):
    """(worst relative error of sampled rows against float64, whether any NaN or LSE mismatch was seen)
    for one launch of `launch` (default sm90_fwd.launch; scripts/ab_sm90.py passes other builds')."""
    g = torch.Generator(device="cuda").manual_seed(sq * 7 + sk + d)
    q = torch.randn(b, sq, h, d, device="cuda", dtype=dtype, generator=g)
    k = torch.randn(b, sk, hk, d, device="cuda", dtype=dtype, generator=g)
    v = torch.randn(b, sk, hk, d, device="cuda", dtype=dtype, generator=g)
    out = torch.full_like(q, float("nan"))
    lse = torch.full((b, h, sq), float("nan"), device="cuda")
    (launch or sm90_fwd.launch)(q, k, v, out, lse, d ** -0.5, causal, sk - sq, **tiles)
    torch.cuda.synchronize()
    rows = torch.unique(torch.linspace(0, sq - 1, min(sq, 400), device="cuda").long())
    worst, bad = 0.0, bool(out.isnan().any() or lse.isnan().any())
    for bb, hh in {(0, 0), (b - 1, h - 1)}:
        ro, rl = attention_ref_rows(q, k, v, d ** -0.5, sk - sq if causal else None, bb, hh, rows)
        worst = max(worst, float((out[bb, rows, hh].double() - ro).norm() / ro.norm()))
        fin = torch.isfinite(rl)
        bad = bad or not torch.equal(torch.isfinite(lse[bb, hh, rows]), fin)
        bad = bad or not torch.allclose(lse[bb, hh, rows][fin].double(), rl[fin], rtol=1e-3, atol=1e-3)
    return worst, bad


def gluon_fn(tiles, launch=None):
    """fn(q, k, v, causal) on (B, H, S, D) inputs, for the bench: one launch of `launch` (default
    sm90_fwd.launch) with these tiles."""
    def fn(q, k, v, causal):
        b, h, s, d = q.shape
        out = torch.empty_like(q)
        lse = torch.empty((b, h, s), device="cuda", dtype=torch.float32)
        (launch or sm90_fwd.launch)(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), out.transpose(1, 2),
                                    lse, d ** -0.5, causal, 0, **tiles)
        return out
    return fn


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out")
    ap.add_argument("--configs", default=",".join(CONFIGS), help="comma-separated names from CONFIGS")
    ap.add_argument("--no-correctness", action="store_true")
    ap.add_argument("--no-speed", action="store_true")
    ap.add_argument("--cases", default="64:4096,64:16384,128:2048,128:16384,256:16384",
                    help="speed cases D:S (16K tokens each), causal off and on")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    names = [n for n in args.configs.split(",") if n]
    tag = "-".join(names) if len(names) == 1 else "all"
    res = {"correctness": [], "speed": []}
    ok = True
    for name in names if not args.no_correctness else ():
        dims, tiles = CONFIGS[name]
        for d in dims:
            for causal in (False, True):
                for shape in ((2, 333, 1000, 4, 2), (1, 1000, 333, 2, 2), (1, 4096, 4096, 2, 1)):
                    err, bad = check(*shape[:3], shape[3], shape[4], d, causal, torch.bfloat16, tiles)
                    good = err < 1e-2 and not bad
                    ok &= good
                    res["correctness"].append(dict(config=name, shape=shape, d=d, causal=causal, rel_err=err,
                                                   nan_or_lse_mismatch=bad))
                    if not good:
                        print(f"FAIL {name} D{d} causal={causal} {shape}: rel err {err:.2e} nan/lse={bad}", flush=True)
        print(f"correctness {name}: {sum(r['config'] == name for r in res['correctness'])} cases,",
              "all OK" if ok else "FAILURES", flush=True)
    if not args.no_speed:
        peers = bench.peer_kernels()
        for cell in args.cases.split(","):
            d, s = (int(x) for x in cell.split(":"))
            kernels = {"triton(dhpfa)": peers["dhpfa"], "sdpa_flash": peers["sdpa_flash"],
                       "sdpa_cudnn": peers["sdpa_cudnn"]}
            kernels.update({n: gluon_fn(CONFIGS[n][1]) for n in names if d in CONFIGS[n][0]})
            for causal in (False, True):
                case = bench.Case(bench.TOKENS // s, bench.HIDDEN // d, s, d, causal)
                r = bench.bench_case(case, kernels, rounds=5)
                res["speed"].append(dict(case=case.label(), results=r))
                print(f"{case.label():<32} " + "  ".join(f"{n}={v['tflops']:.0f}" if "tflops" in v else f"{n}=err"
                                                         for n, v in r.items()), flush=True)
    with open(os.path.join(args.out, f"sm90-{tag}.json"), "w") as f:
        json.dump(res, f, indent=1)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
