"""Compile ab_sm90.py configurations of the tree's sm90_fwd into Triton's cache with a pool of processes (device runs),
so that ab_sm90's correctness pass and timing do not compile them one by one: every head dim the configuration lists
(or --dims), causal and not, bf16 and fp16. The shape arguments are not specialised, so small tensors give the binary
every call launches.

    PYTHONPATH=src:scripts python3 scripts/precompile_ab.py --configs ind_n64s2,ind_n64s2_p7 [--dims 128] [--jobs 16] \
        [--modules sm90_fwd,_ab_x]   (copies beside sm90_fwd, as ab_sm90.py --module NAME=src/dhpfa/kernels/_ab_x.py)
"""
import argparse
import multiprocessing as mp
import time


def _work(job):
    import importlib
    import torch
    from ab_sm90 import CONFIGS
    name, d, causal, dt, module = job
    sm90_fwd = importlib.import_module(f"dhpfa.kernels.{module}")
    tiles = dict(CONFIGS[name][1])
    warp_specialized = tiles.pop("warp_specialized", False)
    dtype = getattr(torch, dt)
    q = torch.empty(1, 256, 2, d, device="cuda", dtype=dtype)
    lse = torch.empty(1, 2, 256, device="cuda")
    grid, args, kwargs = sm90_fwd.launch_args(q, q, q, torch.empty_like(q), lse, 0.1, causal, 0,
                                              warp_specialized=warp_specialized, **tiles)
    (sm90_fwd.attn_fwd_sm90_ws if warp_specialized else sm90_fwd.attn_fwd_sm90).warmup(*args, grid=grid, **kwargs)
    return 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--configs", required=True)
    ap.add_argument("--dims", default="")
    ap.add_argument("--jobs", type=int, default=16)
    ap.add_argument("--modules", default="sm90_fwd", help="kernel modules in dhpfa.kernels (copies of sm90_fwd)")
    args = ap.parse_args()
    from ab_sm90 import CONFIGS
    dims = {int(x) for x in args.dims.split(",") if x}
    jobs = [(n, d, c, dt, m) for n in args.configs.split(",") if n for d in CONFIGS[n][0] if not dims or d in dims
            for c in (False, True) for dt in ("bfloat16", "float16") for m in args.modules.split(",") if m]
    t0 = time.time()
    with mp.get_context("spawn").Pool(args.jobs) as pool:
        n = sum(pool.map(_work, jobs, chunksize=1))
    print(f"precompiled {n} builds in {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
