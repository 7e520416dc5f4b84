"""Session 43 experiment: where a SPLIT_KV=2 call's time goes (sm90_fwd STAMP: thread 0 of each consumer writes
(%clock64, %globaltimer) at its start, after Q lands, after its key blocks, after the meeting and at its end), for the
global-memory meeting (kv2) and the cluster one (cl2, CLUSTER). Eager launches (the stamps are intra-kernel), medians
over launches and programs, by part.

    PYTHONPATH=src:scripts python3 scripts/cluster_stamps.py --out DIR [--launches 30]
"""
import argparse
import json
import os
import statistics

import torch

from dhpfa.kernels import sm90_fwd
from cluster_ab import kv

NAMES = ("start", "q", "blocks", "meeting", "end")


def run(tiles, b, h, sq, sk, d, launches):
    g = torch.Generator(device="cuda").manual_seed(1)
    q = torch.randn(b, sq, h, d, device="cuda", dtype=torch.bfloat16, generator=g)
    k = torch.randn(b, sk, h, d, device="cuda", dtype=torch.bfloat16, generator=g)
    v = torch.randn(b, sk, h, d, device="cuda", dtype=torch.bfloat16, generator=g)
    out = torch.empty_like(q)
    lse = torch.empty(b, h, sq, device="cuda")
    programs = 2 * b * h * -(-sq // 64)
    stamps = torch.zeros(programs * 16, dtype=torch.int64, device="cuda")
    rows = []
    for i in range(launches + 3):
        stamps.zero_()
        torch.cuda.synchronize()
        sm90_fwd.launch(q, k, v, out, lse, d ** -0.5, False, sk - sq, stamps=stamps, **tiles)
        torch.cuda.synchronize()
        if i >= 3:
            rows.append(stamps.view(programs, 8, 2).cpu())
    units = programs // 2
    cl = bool(tiles.get("cluster"))
    part = [(p % 2) if cl else (p // units) for p in range(programs)]
    tile = [(p // 2) if cl else (p % units) for p in range(programs)]
    res = {"part0": {}, "part1": {}, "tile": {}}
    for r in rows:
        c, gt = r[:, :, 0].double(), r[:, :, 1].double()
        g0 = gt[:, 0].min()
        for p in range(programs):
            dst = res[f"part{part[p]}"]
            dst.setdefault("start_ns", []).append(float(gt[p, 0] - g0))
            dst.setdefault("end_ns", []).append(float(gt[p, 4] - g0))
            for a, bname in zip(NAMES[:-1], NAMES[1:]):
                dst.setdefault(f"{a}->{bname}_cyc", []).append(float(c[p, NAMES.index(bname)] - c[p, NAMES.index(a)]))
            if cl:  # the meeting's inner stamps (5-7): part 0 waited / loaded; part 1 staged / ready / copy issued
                for j in ((5, 6) if part[p] == 0 else (5, 6, 7)):
                    dst.setdefault(f"blocks->s{j}_cyc", []).append(float(c[p, j] - c[p, 2]))
            dst.setdefault("cyc_per_ns", []).append(float((c[p, 4] - c[p, 0]) / max(1.0, float(gt[p, 4] - gt[p, 0]))))
        for t in range(units):
            p0 = next(p for p in range(programs) if tile[p] == t and part[p] == 0)
            p1 = next(p for p in range(programs) if tile[p] == t and part[p] == 1)
            res["tile"].setdefault("part1_blocks_done_minus_part0_ns", []).append(float(gt[p1, 2] - gt[p0, 2]))
            res["tile"].setdefault("part0_meeting_ns", []).append(float(gt[p0, 3] - gt[p0, 2]))
            res["tile"].setdefault("kernel_span_ns", []).append(float(gt[:, 4].max() - g0))
    return {k: {m: statistics.median(v) for m, v in d_.items()} for k, d_ in res.items()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out")
    ap.add_argument("--launches", type=int, default=30)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    out = {}
    for b, h, sq, sk, d in ((1, 8, 512, 512, 64), (1, 8, 512, 512, 128)):
        for name, tiles in (("cl2", kv(cluster=True)), ("cl2_n64", kv(64, True, 3))):  # (the second: session 44)
            r = run(tiles, b, h, sq, sk, d, args.launches)
            out[f"{name} {(b, h, sq, sk, d)}"] = r
            print(f"== {name} {(b, h, sq, sk, d)}", flush=True)
            for k, d_ in r.items():
                print(f"  {k}: " + "  ".join(f"{m}={v:.0f}" if v >= 10 else f"{m}={v:.2f}" for m, v in d_.items()),
                      flush=True)
    with open(os.path.join(args.out, "cluster_stamps.json"), "w") as f:
        json.dump(dict(device=torch.cuda.get_device_name(), results=out), f, indent=1)


if __name__ == "__main__":
    main()
