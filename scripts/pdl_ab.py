"""Programmatic dependent launch (session 32, not shipped): correctness of chained calls, then the API with PDL off (0),
triggered at each program's start (1) or after its last load (2), beside cuDNN and FA2 in CUDA-graph replay. Needs the
experiment's kernel source (`dispatch.PDL`, the kernels' PDL flag):

    git apply docs/experiments/session32_pdl.diff
    PYTHONPATH=src:scripts python3 scripts/pdl_ab.py [--out DIR] [--rounds 15] [--skip-timing]

Correctness: chains of calls where each call's q is the previous call's output (with PDL the next kernel's programs
start while the previous runs, so a missing wait would read a stale or half-written q), eager and in one CUDA graph,
each link against float64 and bitwise against the same chain without PDL; then chains with torch kernels between.
Timing: `bench.interleaved_ms(graph=True)` (graphs of up to 200 calls, random order per round) and, at (1,8,512,64),
`bench.graph_ms` with graphs of 1 and 16 calls (best of 3 passes), as launch_floor.py.
"""
import argparse
import json
import os
import statistics

import torch

import dhpfa
from dhpfa.kernels import dispatch
from dhpfa.measure import bench
from small_tiles import patched_call

SHAPES = [  # (B, H, S, D, causal): the builds the API picks there differ (few-program Gluon, Triton TMA tiles,
    # persistent Gluon, short causal, padded head dims, pointer tiles)
    (1, 8, 512, 64, False), (1, 8, 512, 128, True), (4, 16, 1024, 64, False), (2, 16, 4096, 128, False),
    (16, 16, 512, 128, True), (1, 4, 777, 96, True), (2, 3, 300, 256, False), (8, 32, 512, 32, True),
]


def ref64(q, k, v, causal):
    """float64 attention on the GPU, (B, H, S, D)."""
    q, k, v = (t.double() for t in (q, k, v))
    s = q @ k.transpose(-1, -2) * q.shape[-1] ** -0.5
    if causal:
        n = s.shape[-1]
        s = s.masked_fill(torch.ones(n, n, dtype=torch.bool, device=s.device).triu(1), float("-inf"))
    return torch.softmax(s, dim=-1) @ v


def api(q, k, v, causal):
    return dhpfa.scaled_dot_product_attention(q, k, v, is_causal=causal)


def chain(q, k, v, causal, links, between=False):
    outs = []
    x = q
    for _ in range(links):
        if between:
            x = x * 1.0  # a torch kernel between two calls (launched without PDL)
        x = api(x, k, v, causal)
        outs.append(x)
    return outs


def check_chains(rows):
    bad = 0
    for b, h, s, d, causal in SHAPES:
        g = torch.Generator(device="cuda").manual_seed(b * 1000 + s + d)
        q, k, v = (torch.randn(b, h, s, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(3))
        for between in (False, True):
            for mode in MODES[1:]:
                row = check_chain(q, k, v, causal, between, mode)
                bad += not row["ok"]
                rows.append(row)
    dispatch.PDL = 1
    dispatch.clear_launchers()
    return bad


def check_chain(q, k, v, causal, between, mode, links=6):
    """One chain with dispatch.PDL = mode: eager and in one graph, bitwise against PDL = 0, each link against float64."""
    dispatch.PDL = 0
    dispatch.clear_launchers()
    ref_bits = [x.clone() for x in chain(q, k, v, causal, links, between)]
    dispatch.PDL = mode
    dispatch.clear_launchers()
    eager = [x.clone() for x in chain(q, k, v, causal, links, between)]
    qs = q.clone()  # one graph of the whole chain (q rewritten before each replay)
    graph = bench.capture_graph(lambda: graph_out.__setitem__(0, chain(qs, k, v, causal, links, between)))
    for _ in range(3):
        qs.copy_(q)
        graph.replay()
    torch.cuda.synchronize()
    in_graph = [x.clone() for x in graph_out[0]]
    del graph
    errs = []  # float64 link by link, each from the previous link's bf16 output (as the kernel reads it)
    x = q
    for out in eager:
        ref = ref64(x * 1.0 if between else x, k, v, causal)
        errs.append(((out.double() - ref).norm() / ref.norm()).item())
        x = out
    same_eager = all(torch.equal(a, b) for a, b in zip(ref_bits, eager))
    same_graph = all(torch.equal(a, b) for a, b in zip(ref_bits, in_graph))
    ok = same_eager and same_graph and max(errs) < 1e-2
    print(f"chain {tuple(q.shape)} causal={causal} between={between} PDL {mode}: max rel err {max(errs):.2e} "
          f"bitwise eager {same_eager} graph {same_graph} -> {'OK' if ok else 'BAD'}", flush=True)
    return dict(shape=tuple(q.shape), causal=causal, torch_between=between, pdl=mode, max_rel_err=max(errs),
                bitwise_eager=same_eager, bitwise_graph=same_graph, ok=ok)


graph_out = [None]
MODES = (0, 1, 2)  # dispatch.PDL: off; trigger at the start; trigger after the last load

TIMED = [(1, 8, 512, 64, False), (1, 8, 512, 64, True), (1, 8, 512, 128, False), (1, 8, 512, 256, False),
         (4, 16, 1024, 64, False), (32, 16, 512, 128, True), (32, 16, 512, 128, False), (32, 32, 512, 64, True),
         (2, 16, 4096, 128, False), (1, 16, 16384, 128, True)]


def timing(rounds, res):
    peers = bench.peer_kernels()
    kernels = {f"pdl{m}": patched_call(api, dispatch, "PDL", m, clear_launchers=True) for m in MODES}
    kernels.update(cudnn=peers["sdpa_cudnn"], fa2=peers["sdpa_flash"])

    def after_op(fn):  # a torch kernel writing q (in place, values unchanged) before each call
        return lambda q, k, v, causal: fn(q.mul_(1.0), k, v, causal)
    mixed = {n: after_op(kernels[n]) for n in ("pdl0", "pdl1", "pdl2", "cudnn")}
    names = list(kernels)
    print(f"{'shape':<24} " + " ".join(f"{n:>8}" for n in names) + "  | with a torch op before each call: "
          + " ".join(f"{n:>8}" for n in mixed))
    for b, h, s, d, causal in TIMED:
        case = bench.Case(b, h, s, d, causal)
        sets = bench.make_inputs(case, bench.n_sets_for(case))
        key = f"{b},{h},{s},{d}" + (" causal" if causal else "")
        line = f"{key:<24} "
        for kind, ks in (("back_to_back", kernels), ("after_torch_op", mixed)):
            t = bench.interleaved_ms(ks, sets, causal, rounds=rounds, graph=True, errors={})
            med = {n: statistics.median(x) * 1e3 for n, x in t.items()}
            res["interleaved_us"].setdefault(kind, {})[key] = med
            line += " ".join(f"{med.get(n, float('nan')):8.2f}" for n in ks) + ("  | " if kind == "back_to_back" else "")
        print(line, flush=True)
    sets = bench.make_inputs(bench.Case(1, 8, 512, 64, False), 4)
    for n in (1, 16):
        graph_sets = [sets[i % len(sets)] for i in range(n)]
        for name in ("pdl0", "pdl1", "pdl2", "cudnn"):
            best = min(bench.graph_ms(lambda q, k, v: kernels[name](q, k, v, False), graph_sets,
                                      replays=max(1600 // n, 20)) * 1e3 for _ in range(3))
            res["graph_us"][f"{name}, {n} calls a graph"] = best
            print(f"(1,8,512,64) {name:<8} {n:>2} calls a graph: {best:6.2f} us per call", flush=True)


def _warm_one(job):
    """One API call of (shape, PDL) in a fresh process: its binaries land in Triton's on-disk cache."""
    (b, h, s, d, causal), pdl = job
    os.environ["DHPFA_PDL"] = str(pdl)
    import torch as t
    import dhpfa as dh
    q, k, v = (t.randn(b, h, s, d, device="cuda", dtype=t.bfloat16) for _ in range(3))
    dh.scaled_dot_product_attention(q, k, v, is_causal=causal)
    t.cuda.synchronize()
    return 1


def warm(shapes, jobs=16):
    """Compile what the shapes run, with and without PDL, in a pool of processes (serial JIT compiles would take
    minutes of device time)."""
    import multiprocessing as mp
    todo = [(sh, pdl) for sh in dict.fromkeys(shapes) for pdl in MODES]
    with mp.get_context("spawn").Pool(jobs) as pool:
        return sum(pool.map(_warm_one, todo, chunksize=1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out")
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--skip-timing", action="store_true")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    res = {"device": torch.cuda.get_device_name(), "chains": [], "interleaved_us": {}, "graph_us": {}}
    print(f"warmed {warm(SHAPES + ([] if a.skip_timing else TIMED))} (shape, PDL) pairs", flush=True)
    bad = check_chains(res["chains"])
    print(f"chains: {'FAILURES ' + str(bad) if bad else 'all OK'}", flush=True)
    if not a.skip_timing:
        timing(a.rounds, res)
    with open(os.path.join(a.out, "pdl_ab.json"), "w") as f:
        json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
