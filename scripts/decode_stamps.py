"""Session 48: where a decode-like split-KV call's time goes (sm90_fwd STAMP: thread 0 of each consumer writes
(%clock64, %globaltimer) at its start (0), after Q lands (1), after its key blocks (2), after the tree's level-0 meeting
(3: the pair's cluster meeting, or the first global arrival), after each higher level in the program that goes on (5,
6, 7: levels 1-3; the root's last one past its merge) and at its end (4)), for cluster trees (CL_TREE) and global
trees, beside the same build's CUDA-graph replay time (no stamps). Eager launches for the stamps; medians over launches.

    PYTHONPATH=src:scripts python3 scripts/decode_stamps.py --out DIR [--launches 30]
"""
import argparse
import json
import os
import statistics

import torch

from cluster_tree_ab import CONFIGS, launch_fn
from dhpfa.kernels import sm90_fwd

# (config, B, H (= H_kv), S_q, S_k, D): decode as the API packs it ((1,32,8,1,S) -> (1,8,8,4,S)), MQA (4,32,1,1,S)
CASES = [("cl16", 1, 8, 4, 4096, 64), ("kv16", 1, 8, 4, 4096, 64), ("cl4", 1, 8, 4, 1024, 64),
         ("cl8", 1, 8, 4, 1024, 64), ("cl16", 1, 8, 4, 1024, 64), ("cl8", 1, 8, 4, 4096, 128),
         ("kv8", 1, 8, 4, 4096, 128), ("cl16", 4, 1, 32, 8192, 128), ("cl4", 1, 8, 4, 1024, 128),
         ("cl16", 1, 8, 4, 32768, 64)]


# --set x16 (session 50, prepared for the next session): MQA of one sequence on clusters of sixteen (and eight), where
# it still reads x0.72-0.86 of cuDNN: stamp 3 of a CLUSTER_N cluster build lies after its whole shared-memory meeting
# (all levels), so its root (rank 0 of the tile's first cluster) reports that meeting as one span (root_cluster_*)
CASES_X16 = [("x16", 1, 1, 32, 2048, 128), ("x16", 1, 1, 32, 4096, 128), ("x16", 1, 1, 32, 8192, 128),
             ("x32", 1, 1, 32, 16384, 128), ("o8", 1, 1, 32, 2048, 128), ("x16", 1, 1, 32, 4096, 64),
             ("x16", 4, 1, 32, 8192, 128)]


def run(name, b, h, sq, sk, d, launches):
    tiles = CONFIGS[name]
    parts = tiles["split_kv"]
    g = torch.Generator(device="cuda").manual_seed(1)
    q = torch.randn(b, sq, h, d, device="cuda", dtype=torch.bfloat16, generator=g)
    k = torch.randn(b, sk, h, d, device="cuda", dtype=torch.bfloat16, generator=g)
    v = torch.randn(b, sk, h, d, device="cuda", dtype=torch.bfloat16, generator=g)
    out = torch.empty_like(q)
    lse = torch.empty(b, h, sq, device="cuda")
    units = b * h * -(-sq // 64)
    programs = parts * units
    stamps = torch.zeros(programs * 16, dtype=torch.int64, device="cuda")
    rows = []
    for i in range(launches + 3):
        stamps.zero_()
        torch.cuda.synchronize()
        sm90_fwd.launch(q, k, v, out, lse, d ** -0.5, False, sk - sq, stamps=stamps, **tiles)
        torch.cuda.synchronize()
        if i >= 3:
            rows.append(stamps.view(programs, 8, 2).cpu())
    cl = bool(tiles.get("cluster"))
    levels = parts.bit_length() - 1  # log2(parts): level 0 .. levels - 1; the root's meeting is level levels - 1
    res = {}
    ctas = tiles.get("cluster") if tiles.get("cluster") in (4, 8, 16) else 0

    def add(key, val):
        res.setdefault(key, []).append(float(val))
    for r in rows:
        c, gt = r[:, :, 0].double(), r[:, :, 1].double()
        g0 = gt[:, 0].min()
        add("start_spread_ns", gt[:, 0].max() - g0)
        add("q_cyc", (c[:, 1] - c[:, 0]).median())
        add("blocks_cyc", (c[:, 2] - c[:, 1]).median())
        add("blocks_done_last_ns", gt[:, 2].max() - g0)
        add("span_ns", gt[:, 4].max() - g0)
        add("cyc_per_ns", ((c[:, 4] - c[:, 0]) / (gt[:, 4] - gt[:, 0]).clamp(min=1)).median())
        if ctas:  # CLUSTER_N clusters: stamp 3 after the whole shared-memory meeting; rank 0 of the tile's first one
            for t in range(units):
                prog = [t * parts + p for p in range(parts)]
                p = prog[0]
                add("root_blocks_done_ns", gt[p, 2] - g0)
                add("last_blocks_done_ns", max(gt[q_, 2] for q_ in prog) - g0)
                add("root_cluster_meeting_cyc", c[p, 3] - c[p, 2])
                add("root_cluster_wait_ns", gt[p, 3] - max(gt[q_, 2] for q_ in prog[:ctas]))
                add("root_after_meeting_cyc", c[p, 4] - c[p, 3])  # global levels (parts > ctas), merge and store
                add("root_end_ns", gt[p, 4] - g0)
            continue
        for t in range(units):
            prog = [p * units + t for p in range(parts)] if not cl else [t * parts + p for p in range(parts)]
            top = 4 + levels - 1 if levels > 1 else 3  # the root's last stamp: level levels - 1 (5, 6, 7), or 3
            roots = [p for p in prog if r[p, min(top, 7), 1] != 0] if levels > 1 else prog
            if not roots:
                continue
            p = roots[0]
            prev_c, prev_g = c[p, 2], gt[p, 2]
            add("root_blocks_done_ns", prev_g - g0)
            for lv in range(levels):
                idx = 3 if lv == 0 else 4 + lv
                if idx > 7 or r[p, idx, 1] == 0:
                    break
                add(f"root_level{lv}_cyc", c[p, idx] - prev_c)
                add(f"root_level{lv}_wait_ns", gt[p, idx] - max(gt[q_, 2] for q_ in prog))
                prev_c = c[p, idx]
            add("root_epilogue_cyc", c[p, 4] - prev_c)
            add("root_end_ns", gt[p, 4] - g0)
    return {k_: statistics.median(v_) for k_, v_ in res.items()}, (q, k, v)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out")
    ap.add_argument("--launches", type=int, default=30)
    ap.add_argument("--set", default="", choices=("", "x16"))
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    from dhpfa.measure.bench import interleaved_ms
    out = {}
    for name, b, h, sq, sk, d in CASES_X16 if args.set == "x16" else CASES:
        r, _ = run(name, b, h, sq, sk, d, args.launches)
        fn = launch_fn(name)
        g = torch.Generator(device="cuda").manual_seed(2)
        sets = [tuple(torch.randn(b, h, s, d, device="cuda", dtype=torch.bfloat16, generator=g) for s in (sq, sk, sk))
                for _ in range(3)]
        times = interleaved_ms({name: fn}, sets, False, rounds=7, graph=True, batch_ms=5.0)
        r["graph_replay_us"] = statistics.median(times[name]) * 1000
        key = f"{name} {(b, h, sq, sk, d)}"
        out[key] = r
        print(f"== {key}: " + "  ".join(f"{m}={v:.0f}" if abs(v) >= 10 else f"{m}={v:.2f}" for m, v in r.items()),
              flush=True)
    with open(os.path.join(args.out, "decode_stamps.json"), "w") as f:
        json.dump(dict(device=torch.cuda.get_device_name(), results=out), f, indent=1)


if __name__ == "__main__":
    main()
