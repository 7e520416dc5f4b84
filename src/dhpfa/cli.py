"""Command line: `dhpfa` (the main job), `dhpfa audit`, `dhpfa bench`, `dhpfa leak`, `dhpfa counters`,
`dhpfa suite`, `dhpfa tune`. GPU commands stop at once with a clear message on a machine with no GPU."""
import argparse
import os
import sys
import time

SHAPE_HELP = "B,H,S,D, or B,H,Sq,D,Sk,H_kv (fewer key/value heads: enable_gqa)"


def _has_cuda():
    import torch
    return torch.cuda.is_available()


# ---- main job ------------------------------------------------------------------------------------------
def cmd_demo(args):
    """Run attention; on a GPU print its speed beside SDPA, on a CPU check it in the interpreter."""
    if not _has_cuda():
        os.environ["TRITON_INTERPRET"] = "1"  # before the kernels are defined (first call)
        return _demo_cpu()
    return _demo_gpu()


def _demo_cpu():
    import math

    import torch

    import dhpfa
    from dhpfa.reference import attention_ref
    g = torch.Generator().manual_seed(0)
    b, s, h, hk, d = 1, 77, 4, 2, 64
    q = torch.randn(b, s, h, d, generator=g).half()
    k = torch.randn(b, s, hk, d, generator=g).half()
    v = torch.randn(b, s, hk, d, generator=g).half()
    print(f"No GPU here: running the dhpfa kernel in Triton's CPU interpreter on (B,S,H,Hkv,D)="
          f"{(b, s, h, hk, d)}, fp16, causal.")
    t0 = time.time()
    out = dhpfa.flash_attn_func(q, k, v, causal=True)
    dt = time.time() - t0
    ref, _ = attention_ref(q, k, v, 1 / math.sqrt(d), causal_offset=0)
    err = float((out.double() - ref).norm() / ref.norm())
    ok = err < 2e-3
    print(f"relative error vs float64 reference: {err:.2e} ({'OK' if ok else 'FAIL'}, limit 2e-3); "
          f"interpreter time {dt:.1f} s")
    return 0 if ok else 1


def _demo_gpu():
    import torch

    from .measure import bench
    from .measure.gpu import device_name
    from .reference import attention_ref_rows
    print(f"GPU: {device_name()}")
    cases = [bench.Case(4, 16, 4096, 128, False), bench.Case(4, 16, 4096, 128, True),
             bench.Case(1, 16, 16384, 128, False)]
    kernels = bench.peer_kernels()
    # correctness first, against float64 on a few rows
    c = cases[0]
    q, k, v = bench.make_inputs(c, 1)[0]
    out = kernels["dhpfa"](q, k, v, False)
    rows = torch.arange(0, c.seq, 97, device="cuda")
    ref, _ = attention_ref_rows(*(t.transpose(1, 2) for t in (q, k, v)), c.head_dim ** -0.5, None, 0, 0, rows)
    err = float((out[0, 0, rows].double() - ref).norm() / ref.norm())
    print(f"relative error vs float64 on sampled rows: {err:.2e} ({'OK' if err < 1e-2 else 'FAIL'})")
    rows_out = bench.run_grid(cases, kernels, progress=False)
    print(bench.format_table(rows_out))
    return 0 if err < 1e-2 else 1


# ---- audit ---------------------------------------------------------------------------------------------
def cmd_audit(args):
    if os.environ.get("TRITON_INTERPRET") == "1":
        print("dhpfa audit: compiles real sm_90a binaries; unset TRITON_INTERPRET first.", file=sys.stderr)
        return 2
    from . import audit
    from .audit import report
    t0 = time.time()
    if args.compile_only:
        n, fresh = audit.compile_shipped(jobs=args.jobs)
        print(f"compiled {fresh} of {n} binaries ({n - fresh} in the cache) in {time.time() - t0:.1f} s")
        return 0
    if args.cubin:
        offsets = [int(x, 0) for x in args.public_param_offset]
        reports = audit.audit_cubin(args.cubin, kernel=args.kernel, public_param_offsets=offsets)
        rows = report.function_rows(reports, os.path.basename(args.cubin))
    else:
        rows = report.variant_rows(audit.audit_shipped(jobs=args.jobs))
    if args.json:
        print(report.to_json(rows))
    else:
        print(report.format_table(rows))
        print(f"audited {len(rows)} function(s) in {time.time() - t0:.1f} s (sm_90a, triton "
              f"{__import__('triton').__version__})")
    return 0 if all(r["ok"] for r in rows) else 1


# ---- GPU measurements ----------------------------------------------------------------------------------
def _gpu_command(name):
    """`dhpfa NAME`: dhpfa.measure.NAME.main(args), after a clear stop where there is no GPU."""
    def run(args):
        import importlib

        from .measure.gpu import require_cuda
        require_cuda(name)
        module = ".tune" if name == "tune" else f".measure.{name}"
        return importlib.import_module(module, __package__).main(args)
    return run


def build_parser():
    p = argparse.ArgumentParser(prog="dhpfa", description="Constant-time attention for Hopper GPUs.")
    sub = p.add_subparsers(dest="cmd")
    sub.add_parser("demo", help="the main job (default): run attention, check it, show its speed")

    a = sub.add_parser("audit", help="static constant-time audit of SASS (no GPU needed)")
    a.add_argument("--json", action="store_true", help="machine-readable output")
    a.add_argument("--cubin", help="audit this cubin/ELF instead of the shipped variants")
    a.add_argument("--kernel", help="with --cubin: only this function")
    a.add_argument("--public-param-offset", action="append", default=[],
                   help="with --cubin: constant-bank offset (e.g. 0x218) of a parameter whose data is public")
    a.add_argument("--jobs", type=int, default=None, help="parallel compile processes")
    a.add_argument("--compile-only", action="store_true",
                   help="only compile the shipped binaries into the cache (the audit then reads them from there)")

    b = sub.add_parser("bench", help="speed grid beside the SDPA backends (GPU)")
    b.add_argument("--out", default="out/bench")
    b.add_argument("--quick", action="store_true", help="a few cells only")
    b.add_argument("--dtypes", default="bf16,fp16")
    b.add_argument("--batch-ms", type=float, default=None,
                   help="grid: each kernel's batch per round lasts at least this long (default 25 ms; 250 for "
                        "sustained clocks, as the long-context part uses)")
    b.add_argument("--parts", default="grid,long,small,short,decode",
                   help="which parts to run: grid, long (context), small (shapes), short (cells in graph replay), "
                        "decode (one query a sequence, grouped heads, in graph replay)")
    b.add_argument("--decode-heads", default="32/8",
                   help="decode part: comma-separated H/H_KV head layouts (e.g. 32/8,32/32,64/4: grouped heads, MHA, "
                        "groups of 16), each at the same (sequence, key/value head) pair counts")

    lk = sub.add_parser("leak", help="dudect-style timing test (GPU)")
    lk.add_argument("--out", default="out/leak")
    lk.add_argument("--samples", type=int, default=2000, help="per class (up to 100000)")
    lk.add_argument("--peers", action="store_true", help="also test the SDPA backends")
    lk.add_argument("--shape", default="4,16,2048,128", help=SHAPE_HELP)
    lk.add_argument("--envelope", action="store_true",
                    help="dhpfa with and without the timing envelope (default calibration)")
    lk.add_argument("--isolated", action="store_true",
                    help="with --envelope: each call waits for the last (default: calls queued back to back)")
    lk.add_argument("--causal", action="store_true", help="causal attention (default: full; not with --envelope)")
    lk.add_argument("--kvcache", action="store_true",
                    help="time flash_attn_with_kvcache's decode step instead (shape B,H,1,D,Sk,H_kv; fixed "
                         "per-sequence cache lengths)")

    c = sub.add_parser("counters", help="hardware-counter equality across input classes (GPU, ncu)")
    c.add_argument("--out", default="out/counters")
    c.add_argument("--peers", action="store_true")
    c.add_argument("--shape", default="2,16,2048,128", help=SHAPE_HELP)
    c.add_argument("--causal", action="store_true", help="causal attention (default: full)")
    c.add_argument("--kvcache", action="store_true",
                   help="count flash_attn_with_kvcache's decode step instead (shape B,H,1,D,Sk,H_kv; fixed "
                        "per-sequence cache lengths)")
    c.add_argument("--rounds", type=int, default=1,
                   help="run the classes and repeats this many times (one ncu process each) and also test each class "
                        "against the repeats over the rounds (Welch's t) for the counts judged by spread: 5 or more")

    t = sub.add_parser("tune", help="autotune the kernel choice per shape class into the on-disk cache (GPU)")
    t.add_argument("--dtypes", default="bf16")
    t.add_argument("--head-dims", default="64,128,256")
    t.add_argument("--seqs", default="512,1024,2048,4096,8192,16384")
    t.add_argument("--reps", type=int, default=30)
    t.add_argument("--timing", choices=("graph", "eager"), default="graph",
                   help="graph: CUDA-graph replay, the kernels' own time (default); eager: a loop of calls")
    t.add_argument("--out", default=None, help="also write the timings here as JSON")

    s = sub.add_parser("suite", help="everything above on the GPU, under ~8 minutes")
    s.add_argument("--out", default="out/suite")
    s.add_argument("--quick", action="store_true")
    return p


def main(argv=None):
    args = build_parser().parse_args(argv)
    cmd = args.cmd or "demo"
    fn = {"demo": cmd_demo, "audit": cmd_audit}.get(cmd) or _gpu_command(cmd)
    try:
        return fn(args)
    except SystemExit as e:  # measure.gpu.NoGpu and argparse
        return e.code


if __name__ == "__main__":
    sys.exit(main())
