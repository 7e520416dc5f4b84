"""One entry point for the GPU machine: speed, timing leaks, counters, determinism, sanitizers.

    dhpfa suite --out DIR      (about 8 minutes on an H100/H200)

Leaves JSON per part, bench.png and summary.md (the short table for the issue note) under DIR.
"""
import json
import os
import time

import torch


def _part(name, fn, out, log, results):
    t0 = time.time()
    try:
        res = fn()
    except Exception as e:  # one part failing must not lose the others
        import traceback
        res = {"error": f"{type(e).__name__}: {e}", "traceback": traceback.format_exc()[-2000:]}
    res_time = time.time() - t0
    results[name] = res
    with open(os.path.join(out, "results.json"), "w") as f:  # rewritten after each part
        json.dump(results, f, indent=1, default=str)
    log.append(f"{name}: {res_time:.0f} s")
    print(f"[suite] {name} done in {res_time:.0f} s", flush=True)
    return res


def main(args):
    from . import bench, counters, determinism, leak, sanitize
    from .gpu import device_name
    import tempfile
    out = args.out
    os.makedirs(out, exist_ok=True)
    scratch = tempfile.mkdtemp(prefix="dhpfa-suite-")  # ncu logs: kept out of `out`
    log, results = [], {"device": device_name(), "torch": torch.__version__}
    kernels = bench.peer_kernels()
    seqs = (1024, 4096, 16384) if args.quick else (512, 1024, 2048, 4096, 8192, 16384)
    dtypes = ("bf16",) if args.quick else ("bf16", "fp16")

    grid = _part("grid", lambda: {"rows": bench.run_grid(bench.grid_cases(seqs=seqs, dtypes=dtypes), kernels,
                                                         progress=False)}, out, log, results)
    longc = _part("long_context", lambda: {"rows": bench.long_context(kernels)}, out, log, results)
    small = _part("small_shapes", lambda: {"rows": bench.small_shapes(kernels)}, out, log, results)
    dec_cells = bench.decode_cells(**bench.DECODE_QUICK) if args.quick else None
    dec = _part("decode", lambda: {"rows": bench.decode_part(bench.peer_kernels(gqa=True), dec_cells)}, out, log,
                results)
    lk = _part("leak", lambda: {name: leak.run_leak(fn, (4, 16, 2048, 128), samples=2000)
                                for name, fn in leak.kernels(peers=True).items()}, out, log, results)
    ct = _part("counters", lambda: {n: counters.run_counters(n, (2, 16, 2048, 128), scratch)
                                    for n in ("dhpfa", "sdpa_flash", "sdpa_cudnn")}, out, log, results)
    env = _part("envelope_overhead", lambda: {"rows": leak.envelope_overhead(
        [(4, 16, 2048, 128), (16, 16, 1024, 128), (1, 16, 16384, 128), (2, 32, 8192, 64), (8, 8, 2048, 256)])},
        out, log, results)
    det = _part("determinism", lambda: determinism.run_determinism(), out, log, results)
    san = _part("sanitizers", lambda: sanitize.run_sanitizers(), out, log, results)
    if "rows" in grid:
        try:
            bench.plot(grid["rows"], os.path.join(out, "bench.png"))
        except Exception as e:
            log.append(f"plot failed: {e}")

    lines = [f"# dhpfa suite on {device_name()} (torch {torch.__version__})", ""]
    if "rows" in grid:
        lines += ["## Speed (TFLOPS, 16K tokens)", bench.format_table(grid["rows"]), ""]
    if "rows" in longc:
        lines += ["## Long context", bench.format_long(longc["rows"]), ""]
    if "rows" in small:
        lines += ["## Small shapes", bench.format_small(small["rows"]), ""]
    if "rows" in dec:
        lines += [f"## Decode (one query a sequence, H / H_kv = {bench.DECODE_HEADS[0]} / {bench.DECODE_HEADS[1]}, "
                  "bf16, CUDA-graph replay)", bench.format_decode(dec["rows"]), ""]
    if "error" not in lk:
        lines += ["## Timing leaks (Welch t vs fresh random, (4,16,2048,128) bf16, 2000/class)",
                  leak.format_table(lk), ""]
    if "error" not in ct:
        lines += ["## Hardware counters ((2,16,2048,128) bf16)", counters.format_table(ct), ""]
    if "rows" in env:
        lines += ["## Timing envelope overhead (pipelined calls, deadline p99.9 x 1.03)",
                  "| shape | plain us | enveloped us | overhead | misses / calls |", "|---|---|---|---|---|"]
        lines += [f"| {tuple(r['shape'])} | {r['plain_us']:.1f} | {r['envelope_us']:.1f} | "
                  f"{r['overhead'] * 100:.1f}% | {r['misses']} / {r['calls']} |" for r in env["rows"]]
        lines += [""]
    lines += ["## Determinism", json.dumps({k: v for k, v in det.items() if k != "traceback"}, default=str)[:800], ""]
    lines += ["## compute-sanitizer", json.dumps({k: {kk: vv for kk, vv in v.items() if kk != "tail"}
                                                  if isinstance(v, dict) else v for k, v in san.items()}), ""]
    lines += ["## Parts", ", ".join(log)]
    text = "\n".join(lines)
    with open(os.path.join(out, "summary.md"), "w") as f:
        f.write(text + "\n")
    print(text)
    return 0
