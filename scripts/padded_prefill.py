"""D=96 / 192 beyond decode (session 16): the API, which now runs D=128 / 256's Gluon builds padded
(variants.PADDED_HEAD_DIMS), beside the portable Triton tiles it ran before (`before`: SM90_SHORT / SM90_DEFAULTS as
variants.select chose them, launched directly) and the SDPA backends. The 16K-token grid (B = 16384 / S, H = 2048 // D),
then small shapes (B,H,S,D) in CUDA-graph replay. Interleaved rounds in random order (bench.interleaved_ms); `xB` is the
median over rounds of dhpfa's speedup over `before` in the same round.

    PYTHONPATH=src:scripts python3 scripts/padded_prefill.py --out DIR [--dims 96,192] [--seqs 512,...]
"""
import argparse
import json
import os
import statistics

import torch

from dhpfa.kernels import variants
from dhpfa.measure import bench
from dhpfa.measure.bench import Case, interleaved_ms
from small_tiles import variant_fn  # scripts/


def before_variant(d, causal, seq_k):
    """The variant variants.select chose at D=96 / 192 before session 16 (no Gluon entry: the Triton tiles)."""
    table = variants.SM90_SHORT if variants.use_short_tiles(d, causal, seq_k) else variants.SM90_DEFAULTS
    return variants.Variant(*table[d], torch.bfloat16, d, causal)


def run_case(case, peers, rounds, batch_ms, graph):
    shape = (case.batch, case.heads, case.seq, case.head_dim)
    before = before_variant(case.head_dim, case.causal, case.seq)
    kernels = {"dhpfa": peers["dhpfa"], "before": variant_fn(before, shape),
               "sdpa_flash": peers["sdpa_flash"], "sdpa_cudnn": peers["sdpa_cudnn"]}
    sets = bench.make_inputs(case, bench.n_sets_for(case))
    errors = {}
    times = interleaved_ms(kernels, sets, case.causal, rounds=rounds, batch_ms=batch_ms, graph=graph, errors=errors)
    row = {"case": case.label(), "before": before.name, "graph": graph, "errors": errors}
    for name, t in times.items():
        ms = statistics.median(t)
        row[name] = {"us": ms * 1e3, "tflops": case.flops() / ms / 1e9}
    if "dhpfa" in times and "before" in times:
        row["xB"] = statistics.median(b / a for a, b in zip(times["dhpfa"], times["before"]))
    del sets
    torch.cuda.empty_cache()
    return row


def fmt(row):
    cells = []
    for name in ("dhpfa", "before", "sdpa_flash", "sdpa_cudnn"):
        r = row.get(name)
        cells.append(f"{name} {r['tflops']:.0f} TF {r['us']:.1f} us" if r else f"{name} -")
    return f"{row['case']}: " + " | ".join(cells) + f" | xB {row.get('xB', float('nan')):.3f}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out")
    ap.add_argument("--dims", default="96,192")
    ap.add_argument("--seqs", default="512,1024,2048,4096,8192,16384")
    ap.add_argument("--small", default="1,8,512,96;1,8,512,192;4,16,1024,96;2,16,2048,192",
                    help="B,H,S,D;... timed in graph replay")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--batch-ms", type=float, default=25.0)
    ap.add_argument("--graph-max-seq", type=int, default=1024, help="grid cells up to this length in graph replay")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    peers = bench.peer_kernels()
    rows = []
    for d in map(int, args.dims.split(",")):
        for s in map(int, args.seqs.split(",")):
            for causal in (False, True):
                case = Case(bench.TOKENS // s, bench.HIDDEN // d, s, d, causal)
                rows.append(run_case(case, peers, args.rounds, args.batch_ms, s <= args.graph_max_seq))
                print(fmt(rows[-1]), flush=True)
    for spec in filter(None, args.small.split(";")):
        b, h, s, d = map(int, spec.split(","))
        for causal in (False, True):
            rows.append(run_case(Case(b, h, s, d, causal), peers, max(args.rounds, 11), args.batch_ms, True))
            print(fmt(rows[-1]), flush=True)
    with open(os.path.join(args.out, "padded_prefill.json"), "w") as f:
        json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
