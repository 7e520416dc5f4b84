"""Compile every shipped variant (or those whose name contains --match) into Triton's cache with a pool of processes,
so that a fresh device machine's test run does not compile them one by one (device runs; session 16). Each worker
calls the JIT's warmup (compile, no launch) on small CUDA tensors: the shape arguments are not specialised, so any
shape gives the binary every call launches.

    PYTHONPATH=src python3 scripts/precompile.py [--jobs 16] [--match sm90_ws [--match bf16 ...]]

(every --match must be in the name)
"""
import argparse
import multiprocessing as mp
import time


def _work(names):
    from dhpfa.audit import placeholder_launch
    from dhpfa.kernels import dispatch, variants
    done = 0
    for v in variants.audited_variants():
        if v.name not in names:
            continue
        grid, args, kwargs = placeholder_launch(v, "cuda")  # the audit's placeholder shapes, on the GPU
        dispatch.kernel_fn(v.kernel).warmup(*args, grid=grid, **kwargs)
        done += 1
    return done


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=16)
    ap.add_argument("--match", action="append", default=[])
    args = ap.parse_args()
    from dhpfa.kernels import variants
    names = [v.name for v in variants.audited_variants() if all(m in v.name for m in args.match)]
    t0 = time.time()
    chunks = [set(names[i::args.jobs]) for i in range(args.jobs)]
    with mp.get_context("spawn").Pool(args.jobs) as pool:
        n = sum(pool.map(_work, chunks))
    print(f"precompiled {n} variants in {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
