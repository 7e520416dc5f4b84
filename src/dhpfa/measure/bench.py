"""Speed of dhpfa beside the SDPA backends, on the grid of ../shared/protocols.md.

Timing (interleaved_ms): in each round every kernel runs a batch of calls (about BATCH_MS of GPU time)
between two CUDA events, in a fresh random order per round, after warm-up rounds; the figure is the median
over rounds of the time per call. Calls rotate among several random input sets so repeated calls do not
just measure the L2 cache. Never zeros. Why interleaved: under the H200's power cap a kernel's time
depends on what ran just before it (a kernel that follows a slow one starts at a higher clock; session 5
run 2), so kernels timed one after another in a fixed order are biased by their position.
"""
import json
import math
import random
import statistics
from dataclasses import asdict, dataclass

import torch

TOKENS = 16384
HIDDEN = 2048
TORCH_DTYPES = {"bf16": torch.bfloat16, "fp16": torch.float16}  # the --dtypes names


@dataclass(frozen=True)
class Case:
    batch: int
    heads: int
    seq: int
    head_dim: int
    causal: bool
    dtype: str = "bf16"

    @property
    def torch_dtype(self):
        return TORCH_DTYPES[self.dtype]

    def flops(self) -> float:
        f = 4.0 * self.batch * self.heads * self.seq * self.seq * self.head_dim
        return f / 2 if self.causal else f

    def label(self) -> str:
        return f"{self.dtype} D{self.head_dim} S{self.seq} B{self.batch} H{self.heads}{' causal' if self.causal else ''}"


def grid_cases(head_dims=(64, 128, 256), seqs=(512, 1024, 2048, 4096, 8192, 16384), dtypes=("bf16",)):
    """16K tokens, hidden 2048: B = 16384 / S, H = 2048 / D."""
    return [Case(TOKENS // s, HIDDEN // d, s, d, c, dt)
            for dt in dtypes for d in head_dims for s in seqs for c in (False, True)]


def make_inputs(case: Case, n_sets: int, seed: int = 0, seq_k=None):
    """n_sets independent random (q, k, v) in (B, H, S, D) layout; seq_k: keys and values of that length
    instead of case.seq (queries keep case.seq)."""
    g = torch.Generator(device="cuda").manual_seed(seed)
    shape = (case.batch, case.heads, case.seq, case.head_dim)
    kv_shape = shape if seq_k is None else (case.batch, case.heads, seq_k, case.head_dim)
    return [tuple(torch.randn(sh, device="cuda", dtype=case.torch_dtype, generator=g)
                  for sh in (shape, kv_shape, kv_shape)) for _ in range(n_sets)]


def n_sets_for(case: Case, l2_bytes=60 * 2 ** 20) -> int:
    """Enough input sets that one rotation exceeds the L2 several times over (at most 8)."""
    per_set = 4 * case.batch * case.heads * case.seq * case.head_dim * 2  # q, k, v, out
    return sets_past_l2(per_set, 4, l2_bytes)


def sets_past_l2(per_set: int, over: int, l2_bytes=60 * 2 ** 20) -> int:
    """Input sets of per_set bytes enough that one rotation exceeds the L2 `over` times: 2 to 8."""
    return max(2, min(8, math.ceil(over * l2_bytes / per_set)))


def time_ms(fn, input_sets, warmup=10, reps=50):
    """Median milliseconds of fn(*inputs) over reps calls, rotating through input_sets."""
    for i in range(warmup):
        fn(*input_sets[i % len(input_sets)])
    torch.cuda.synchronize()
    for i in range(min(warmup, 4)):  # untimed: the host is ahead again before the first timed call
        fn(*input_sets[i % len(input_sets)])
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    for i in range(reps):
        args = input_sets[i % len(input_sets)]
        starts[i].record()
        fn(*args)
        ends[i].record()
    torch.cuda.synchronize()
    times = sorted(s.elapsed_time(e) for s, e in zip(starts, ends))
    return times[len(times) // 2]


def interleaved_ms(kernels, sets, causal, rounds=15, batch_ms=30.0, warmup=2, seed=0, graph=False, errors=None):
    """{name: per-round ms per call} of kernels {name: fn(q, k, v, causal)}. Every round runs each kernel
    for about batch_ms in turn, in a fresh random order: at the power cap a kernel that follows a slow
    (cool) one starts at a higher clock, so a fixed order biases the kernels by position (seen in session 5
    run 2). graph: each kernel's batch is captured once in a CUDA graph and replayed in every round, so
    short cells time the kernels, not the host's launch path. errors: a dict that receives "Type: message"
    of each kernel that fails its first calls (a peer backend that does not support the case), which is
    then left out; without it the error propagates. sets: the input sets of every kernel, or a dict
    {name: input sets} where kernels run on inputs of their own (long_context: one kernel per length)."""
    rng = random.Random(seed)
    names = []
    per_call = {}
    inputs = (lambda n: sets[n]) if isinstance(sets, dict) else (lambda n: sets)
    for name in kernels:  # one timed call each (after a first, compiling one) sizes the batches
        own = inputs(name)
        try:
            kernels[name](*own[0], causal)
            ev = [torch.cuda.Event(enable_timing=True) for _ in range(2)]
            ev[0].record()
            kernels[name](*own[1 % len(own)], causal)
            ev[1].record()
            ev[1].synchronize()
        except Exception as e:
            if errors is None:
                raise
            errors[name] = f"{type(e).__name__}: {str(e).splitlines()[0][:120]}"
            continue
        names.append(name)
        per_call[name] = max(ev[0].elapsed_time(ev[1]), 1e-3)
    batches = {n: max(4, min(200, int(batch_ms / per_call[n]))) for n in names}

    def run_batch(name, r):
        own = inputs(name)
        for i in range(batches[name]):
            q, k, v = own[(r * batches[name] + i) % len(own)]
            kernels[name](q, k, v, causal)

    graphs = {n: capture_graph(lambda n=n: run_batch(n, 0)) for n in names} if graph else {}
    torch.cuda.synchronize()
    times = {n: [] for n in names}
    for r in range(rounds + warmup):
        order = names[:]
        rng.shuffle(order)
        for name in order:
            ev = [torch.cuda.Event(enable_timing=True) for _ in range(2)]
            ev[0].record()
            if graph:
                graphs[name].replay()
            else:
                run_batch(name, r)
            ev[1].record()
            ev[1].synchronize()
            if r >= warmup:
                times[name].append(ev[0].elapsed_time(ev[1]) / batches[name])
    return times


def peer_kernels(gqa=False):
    """name -> fn(q, k, v, causal) for every SDPA backend that runs here, plus dhpfa. gqa: k and v have fewer heads
    than q (every call passes enable_gqa=True)."""
    import dhpfa
    from torch.nn.attention import SDPBackend, sdpa_kernel
    F = torch.nn.functional
    extra = dict(enable_gqa=True) if gqa else {}

    def sdpa(backend):
        def fn(q, k, v, causal):
            with sdpa_kernel([backend]):
                return F.scaled_dot_product_attention(q, k, v, is_causal=causal, **extra)
        return fn

    kernels = {"dhpfa": lambda q, k, v, causal: dhpfa.scaled_dot_product_attention(q, k, v, is_causal=causal, **extra)}
    for name, be in (("sdpa_flash", SDPBackend.FLASH_ATTENTION), ("sdpa_cudnn", SDPBackend.CUDNN_ATTENTION),
                     ("sdpa_efficient", SDPBackend.EFFICIENT_ATTENTION)):
        kernels[name] = sdpa(be)
    return kernels


ROUNDS = 7
BATCH_MS = 25.0


def bench_case(case: Case, kernels: dict, rounds=ROUNDS, batch_ms=BATCH_MS, graph=False):
    """{kernel: {"ms": .., "tflops": .., "rounds": [..]}} for one case, timed by interleaved_ms (eager, or
    graph=True: CUDA-graph replay); kernels that refuse the case get an "error"."""
    sets = make_inputs(case, n_sets_for(case))
    errors = {}
    times = interleaved_ms(kernels, sets, case.causal, rounds=rounds, batch_ms=batch_ms, graph=graph,
                           errors=errors)
    row = kernel_results(kernels, times, errors, lambda ms: {"ms": ms, "tflops": case.flops() / ms / 1e9})
    del sets
    torch.cuda.empty_cache()
    return row


def kernel_results(kernels, times, errors, fields):
    """{kernel: {"error": ..} where it refused, else fields(median ms per call) and its "rounds"} of one cell timed by
    interleaved_ms."""
    return {name: {"error": errors[name]} if name in errors else
            {**fields(statistics.median(times[name])), "rounds": times[name]} for name in kernels}


def run_grid(cases, kernels, progress=True, **kw):
    rows = []
    for i, case in enumerate(cases):
        r = bench_case(case, kernels, **kw)
        rows.append({"case": asdict(case), "label": case.label(), "results": r})
        if progress:
            print(f"[{i + 1}/{len(cases)}] {format_row(rows[-1])}", flush=True)
    return rows


def best_peer(results: dict):
    peers = {k: v["tflops"] for k, v in results.items() if k != "dhpfa" and "tflops" in v}
    if not peers:
        return None, None
    name = max(peers, key=peers.get)
    return name, peers[name]


def format_row(row) -> str:
    r = row["results"]
    parts = [f"{row['label']:<34}"]
    for name, v in r.items():
        parts.append(f"{name}={v['tflops']:6.1f}" if "tflops" in v else f"{name}=  n/a ")
    peer, tf = best_peer(r)
    if peer and "tflops" in r.get("dhpfa", {}):
        parts.append(f"dhpfa/best={r['dhpfa']['tflops'] / tf:4.2f} ({peer})")
    return "  ".join(parts)


def format_table(rows) -> str:
    names = []
    for row in rows:
        names += [n for n in row["results"] if n not in names]
    head = f"| case | {' | '.join(names)} | dhpfa / best peer |"
    lines = [head, "|" + "---|" * (len(names) + 2)]
    for row in rows:
        r = row["results"]
        cells = [f"{r[n]['tflops']:.0f}" if "tflops" in r.get(n, {}) else "n/a" for n in names]
        peer, tf = best_peer(r)
        ratio = f"{r['dhpfa']['tflops'] / tf:.2f} ({peer})" if peer and "tflops" in r.get("dhpfa", {}) else "n/a"
        lines.append(f"| {row['label']} | {' | '.join(cells)} | {ratio} |")
    return "\n".join(lines)


def plot(rows, path):
    """TFLOPS vs seqlen, one panel per (head dim, causal), one line per kernel."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    panels = sorted({(r["case"]["head_dim"], r["case"]["causal"], r["case"]["dtype"]) for r in rows})
    fig, axes = plt.subplots(1, len(panels), figsize=(4 * len(panels), 3.5), squeeze=False)
    for ax, (d, c, dt) in zip(axes[0], panels):
        sel = [r for r in rows if (r["case"]["head_dim"], r["case"]["causal"], r["case"]["dtype"]) == (d, c, dt)]
        names = {n for r in sel for n in r["results"]}
        for n in sorted(names):
            pts = [(r["case"]["seq"], r["results"][n]["tflops"]) for r in sel if "tflops" in r["results"].get(n, {})]
            if pts:
                ax.plot(*zip(*pts), marker="o", label=n)
        ax.set_xscale("log", base=2)
        ax.set_title(f"{dt} D={d}{' causal' if c else ''}")
        ax.set_xlabel("seqlen")
        ax.set_ylabel("TFLOPS")
    axes[0][0].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=90)


def save_json(obj, path):
    with open(path, "w") as f:
        json.dump(obj, f, indent=1)


# ---- long context and small shapes ---------------------------------------------------------------------
LONG_BATCH_MS = 250.0


def long_context(kernels, seqs=(16384, 32768, 65536, 131072), head_dim=128, heads=16, causal=False,
                 rounds=ROUNDS, batch_ms=LONG_BATCH_MS):
    """B = 1; TFLOPS per kernel per S, and relative to the first S (16K). Every (kernel, S) pair is one entry
    of the same interleaved rounds, and every batch lasts at least batch_ms (a 128K call alone takes ~220 ms),
    so all lengths run sustained, at the clocks the power cap allows: timed one length after another with
    25 ms batches (session 9 and before), 16K ran in bursts at higher clocks than 128K (session 10 run 10: the
    16K row 665 against 648 for the same shape in the grid; run 11, interleaved with 25 ms batches: 691).
    rel_to_16k is the median over rounds of the per-round TFLOPS ratio."""
    cases = [Case(1, heads, s, head_dim, causal) for s in seqs]
    entries, inputs = {}, {}
    for case in cases:
        sets = make_inputs(case, n_sets_for(case))
        for name, fn in kernels.items():
            entries[(name, case.seq)] = fn
            inputs[(name, case.seq)] = sets
    errors = {}
    times = interleaved_ms(entries, inputs, causal, rounds=rounds, batch_ms=batch_ms, errors=errors)
    rows = []
    for case in cases:
        res = {}
        for name in kernels:
            key = (name, case.seq)
            if key in errors:
                res[name] = {"error": errors[key]}
                continue
            ms = statistics.median(times[key])
            res[name] = {"ms": ms, "tflops": case.flops() / ms / 1e9, "rounds": times[key]}
            base = (name, cases[0].seq)
            if base in times:
                scale = case.flops() / cases[0].flops()
                res[name]["rel_to_16k"] = statistics.median(scale * t0 / t for t0, t in zip(times[base], times[key]))
        rows.append({"case": asdict(case), "label": case.label(), "results": res})
    del inputs
    torch.cuda.empty_cache()
    return rows


def capture_graph(run):
    """A CUDA graph of run() (a callable that launches work), warmed up first on a side stream, as capture
    needs."""
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        run()
    torch.cuda.current_stream().wait_stream(stream)
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        run()
    return graph


def graph_ms(fn, input_sets, replays=20):
    """Milliseconds per call of fn(*inputs) in CUDA-graph replay: one graph holds one call per input set
    (capture_graph), replayed `replays` times between two events. No host time per call: the kernels' own
    time, as a serving loop in graphs sees it."""
    def run():
        for args in input_sets:
            fn(*args)
    graph = capture_graph(run)
    graph.replay()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(replays):
        graph.replay()
    end.record()
    torch.cuda.synchronize()
    del graph
    return start.elapsed_time(end) / (replays * len(input_sets))


def small_shapes(kernels, shapes=((1, 8, 512, 64), (4, 16, 1024, 64)), iters=200):
    """Microseconds per call, eager and in CUDA-graph replay."""
    out = []
    for shape in shapes:
        b, h, s, d = shape
        case = Case(b, h, s, d, False)
        q, k, v = make_inputs(case, 1)[0]
        row = {"shape": shape, "results": {}}
        for name, fn in kernels.items():
            try:
                eager_ms = time_ms(lambda *a: fn(*a, False), [(q, k, v)], warmup=20, reps=iters)
                g_ms = graph_ms(lambda *a: fn(*a, False), [(q, k, v)], replays=iters)
                row["results"][name] = {"eager_us": eager_ms * 1000, "graph_us": g_ms * 1000}
            except Exception as e:
                row["results"][name] = {"error": f"{type(e).__name__}: {str(e).splitlines()[0][:120]}"}
        out.append(row)
    return out


def short_cells_graph(kernels, seqs=(512, 1024), dtype="bf16"):
    """The grid's short cells (S <= 1K), where an eager call's host time can exceed the GPU time and the
    eager figure then measures the host: TFLOPS in CUDA-graph replay, every kernel alike."""
    rows = []
    for case in grid_cases(seqs=seqs, dtypes=(dtype,)):
        rows.append({"case": asdict(case), "label": case.label(), "results": bench_case(case, kernels, graph=True)})
    return rows


def format_small(rows) -> str:
    lines = ["| shape (B,H,S,D) | kernel | eager us | CUDA-graph us |", "|---|---|---|---|"]
    for r in rows:
        for name, v in r["results"].items():
            if "error" in v:
                lines.append(f"| {r['shape']} | {name} | n/a | n/a |")
            else:
                lines.append(f"| {r['shape']} | {name} | {v['eager_us']:.1f} | {v['graph_us']:.1f} |")
    return "\n".join(lines)


def format_long(rows) -> str:
    names = list(rows[0]["results"])
    lines = ["| S (B=1, H=16, D=128) | " + " | ".join(f"{n} TFLOPS (rel. 16K)" for n in names) + " |",
             "|---|" + "---|" * len(names)]
    for r in rows:
        cells = []
        for n in names:
            v = r["results"].get(n, {})
            cells.append(f"{v['tflops']:.0f} ({v.get('rel_to_16k', 0):.2f})" if "tflops" in v else "n/a")
        lines.append(f"| {r['case']['seq']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


# ---- decode: one query per sequence, grouped heads (session 64) ----------------------------------------
DECODE_HEADS = (32, 8)  # query heads, key/value heads (groups of 4, as Llama-3-8B)
DECODE_QUICK = {"batches": (1, 32, 128), "seqs": (1024, 16384)}  # decode_cells' arguments under --quick (12 cells)


def decode_cells(head_dims=(128, 64), batches=(1, 4, 16, 32, 64, 128), seqs=(1024, 4096, 16384), heads=(DECODE_HEADS,)):
    """(B, H, H_kv, S_k, D) of the decode part: one query per sequence against a KV cache of S_k keys, for each (H,
    H_kv) of `heads` (DECODE_HEADS by default; session 66: `dhpfa bench --decode-heads`, e.g. MHA 32/32 or groups of 16
    64/4); the batches are DECODE_HEADS' scaled to the same (sequence, key/value head) pair counts, 8 to 1,024 (at least
    one sequence), so every layout reads about the same bytes a cell."""
    cells = []
    for h, hk in heads:
        bs = sorted({max(1, b * DECODE_HEADS[1] // hk) for b in batches})
        cells += [(b, h, hk, s, d) for d in head_dims for s in seqs for b in bs]
    return cells


def decode_heads(text: str) -> tuple:
    """`--decode-heads`' value: comma-separated H/H_KV pairs (H a positive multiple of H_KV) as ((H, H_KV), ...); a bad
    value raises SystemExit naming the argument."""
    out = []
    for item in text.split(","):
        try:
            h, hk = (int(x) for x in item.split("/"))
        except ValueError:
            h = hk = 0
        if not (h > 0 and hk > 0 and h % hk == 0):
            raise SystemExit(f"--decode-heads: expected comma-separated H/H_KV pairs with H a positive multiple of "
                             f"H_KV (e.g. 32/8,32/32,64/4), got {text!r}")
        out.append((h, hk))
    return tuple(out)


def decode_bytes(cell) -> int:
    """Bytes a decode call must read at least: the keys and values once (bf16 / fp16), the queries, the output."""
    b, h, hk, sk, d = cell
    return 2 * (2 * b * hk * sk * d + 2 * b * h * d)


def decode_inputs(cell, n_sets, seed=0, dtype=torch.bfloat16):
    """n_sets random (q, k, v) in SDPA's layout: q (B, H, 1, D), k and v (B, H_kv, S_k, D) contiguous (a KV cache as
    Hugging Face transformers keeps it)."""
    b, h, hk, sk, d = cell
    g = torch.Generator(device="cuda").manual_seed(seed)
    return [(torch.randn(b, h, 1, d, device="cuda", dtype=dtype, generator=g),
             *(torch.randn(b, hk, sk, d, device="cuda", dtype=dtype, generator=g) for _ in range(2)))
            for _ in range(n_sets)]


def decode_part(kernels, cells=None, rounds=ROUNDS, batch_ms=5.0, dtype=torch.bfloat16):
    """Microseconds per call and the bytes' rate (TB/s) of every kernel at each decode cell, in CUDA-graph replay of
    interleaved rounds (a decode call lasts microseconds: eager figures would time the host); input sets enough that
    a rotation exceeds the L2 three times (2-8); kernels that refuse a cell get an "error"."""
    rows = []
    for cell in cells or decode_cells():
        sets = decode_inputs(cell, sets_past_l2(decode_bytes(cell), 3), dtype=dtype)
        errors = {}
        times = interleaved_ms(kernels, sets, False, rounds=rounds, batch_ms=batch_ms, graph=True, errors=errors)
        res = kernel_results(kernels, times, errors,
                             lambda ms: {"us": ms * 1000, "tbps": decode_bytes(cell) / ms / 1e9})
        rows.append({"cell": list(cell), "results": res})
        print(format_decode(rows[-1:], head=False), flush=True)
        del sets
        torch.cuda.empty_cache()
    return rows


def format_decode(rows, head=True) -> str:
    """| (B, H, H_kv, S_k, D) | each kernel's us (TB/s) | dhpfa / best peer: the best peer's time over dhpfa's |."""
    names = []
    for row in rows:
        names += [n for n in row["results"] if n not in names]
    lines = [f"| (B, H, H_kv, S_k, D) | {' | '.join(f'{n} us (TB/s)' for n in names)} | dhpfa / best peer |",
             "|" + "---|" * (len(names) + 2)] if head else []
    for row in rows:
        r = row["results"]
        cells = [f"{r[n]['us']:.1f} ({r[n]['tbps']:.2f})" if "us" in r.get(n, {}) else "n/a" for n in names]
        peers = {n: v["us"] for n, v in r.items() if n != "dhpfa" and "us" in v}
        ratio = "n/a"
        if peers and "us" in r.get("dhpfa", {}):
            best = min(peers, key=peers.get)
            ratio = f"{peers[best] / r['dhpfa']['us']:.2f} ({best})"
        lines.append(f"| {tuple(row['cell'])} | {' | '.join(cells)} | {ratio} |")
    return "\n".join(lines)


PARTS = ("grid", "long", "small", "short", "decode")


def main(args):
    import os
    os.makedirs(args.out, exist_ok=True)
    parts = [p for p in getattr(args, "parts", ",".join(PARTS)).split(",") if p]
    unknown = sorted(set(parts) - set(PARTS))
    if unknown:
        raise SystemExit(f"--parts: unknown part(s) {unknown}; expected a comma-separated subset of {PARTS}")
    if getattr(args, "batch_ms", None) is not None and not args.batch_ms > 0:
        raise SystemExit(f"--batch-ms: expected a number of milliseconds > 0, got {args.batch_ms}")
    heads = decode_heads(getattr(args, "decode_heads", None) or "/".join(map(str, DECODE_HEADS)))
    kernels = peer_kernels()
    dtypes = tuple(args.dtypes.split(","))
    path = os.path.join(args.out, "bench.json")
    out = {}  # each part is saved and printed as it ends: a time limit keeps the rest
    if "grid" in parts:
        cases = grid_cases(seqs=(1024, 4096, 16384), dtypes=dtypes[:1]) if args.quick else grid_cases(dtypes=dtypes)
        print(f"speed grid: {len(cases)} cells x {len(kernels)} kernels", flush=True)
        batch_ms = getattr(args, "batch_ms", None) or BATCH_MS  # checked > 0 above
        if batch_ms != BATCH_MS:
            print(f"grid batches of at least {batch_ms:g} ms per kernel per round", flush=True)
        out["grid"] = run_grid(cases, kernels, batch_ms=batch_ms)
        save_json(out, path)
        print(format_table(out["grid"]), flush=True)
        try:
            plot(out["grid"], os.path.join(args.out, "bench.png"))
        except ImportError:
            print("matplotlib not installed: no plot")
    if "long" in parts:
        seqs = (16384, 65536) if args.quick else (16384, 32768, 65536, 131072)
        out["long_context"] = long_context(kernels, seqs=seqs)
        save_json(out, path)
        print(format_long(out["long_context"]), flush=True)
    if "small" in parts:
        out["small"] = small_shapes(kernels)
        save_json(out, path)
        print(format_small(out["small"]), flush=True)
    if "short" in parts:
        out["short_graph"] = short_cells_graph(kernels, dtype=dtypes[0])
        save_json(out, path)
        print("S <= 1K cells in CUDA-graph replay (no host time per call):")
        print(format_table(out["short_graph"]))
    if "decode" in parts:
        cells = decode_cells(heads=heads, **DECODE_QUICK) if args.quick else decode_cells(heads=heads)
        print(f"decode: {len(cells)} cells (one query a sequence, H / H_kv = "
              f"{', '.join(f'{h} / {hk}' for h, hk in heads)}, {dtypes[0]}) in CUDA-graph replay", flush=True)
        out["decode"] = decode_part(peer_kernels(gqa=True), cells, dtype=TORCH_DTYPES[dtypes[0]])
        save_json(out, path)
        print(format_decode(out["decode"]), flush=True)
    return 0
