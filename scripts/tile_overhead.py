"""What a query tile costs beyond its key blocks (device run; session 10). Shapes of equal FLOPs and equal
key-block count per head, (Sq, Sk) = (128, 2048), (256, 1024), (512, 512), (1024, 256) at B=32, H=2048/D:
the API runs one kernel build for all four (D=128: n128s2_qd; D=64: the Triton 64x64 tiles), and only the
number of tiles (and the blocks per tile) changes. Timed in CUDA-graph replay, interleaved rounds in random
order, beside cuDNN. Fits time = tiles x T_tile + blocks x T_block (per SM) by least squares.

    PYTHONPATH=src python3 scripts/tile_overhead.py --out DIR [--head-dims 64,128]
"""
import argparse
import json
import os
import statistics

import numpy as np
import torch

from dhpfa.measure import bench

SHAPES = ((128, 2048), (256, 1024), (512, 512), (1024, 256))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out")
    ap.add_argument("--head-dims", default="64,128")
    ap.add_argument("--rounds", type=int, default=12)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    peers = bench.peer_kernels()
    kernels = {"dhpfa": peers["dhpfa"], "sdpa_cudnn": peers["sdpa_cudnn"]}
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    res = {"device": torch.cuda.get_device_name(), "rows": []}
    for d in (int(x) for x in a.head_dims.split(",")):
        b, h = 32, 2048 // d
        rows = []
        for sq, sk in SHAPES:
            sets = bench.make_inputs(bench.Case(b, h, sq, d, False), 3, seed=sq, seq_k=sk)
            times = bench.interleaved_ms(kernels, sets, False, rounds=a.rounds, graph=True)
            ms = {n: statistics.median(t) for n, t in times.items()}
            flops = 4 * b * h * sq * sk * d
            row = dict(d=d, sq=sq, sk=sk, ms=ms, tflops={n: flops / t / 1e9 for n, t in ms.items()})
            rows.append(row)
            print(f"D={d} Sq={sq} Sk={sk}: " + "  ".join(f"{n} {ms[n] * 1e3:.1f} us ({row['tflops'][n]:.0f} TF)"
                                                         for n in ms), flush=True)
            del sets
        # per SM (the busiest: ceil of tiles / SMs): tiles and key blocks of 128-row tiles and 128-key blocks
        # (the D=128 build; for D=64's 64x64 tiles the counts scale by 2 and 4, the fit's units change, not its shape)
        bm, bn = (128, 128) if d == 128 else (64, 64)
        for name in kernels:
            tiles = [-(-b * h * (sq // bm) // sms) for sq, _ in SHAPES]
            X = np.array([[t, t * (sk // bn)] for t, (_, sk) in zip(tiles, SHAPES)])
            y = np.array([r["ms"][name] * 1e3 for r in rows])
            (t_tile, t_block), *_ = np.linalg.lstsq(X, y, rcond=None)
            fit = dict(kernel=name, d=d, t_tile_us=float(t_tile), t_block_us=float(t_block),
                       tile_rows=bm, block_keys=bn)
            res.setdefault("fits", []).append(fit)
            print(f"  fit {name}: per tile {t_tile:.3f} us + per {bm}x{bn} block {t_block:.3f} us (per SM)")
        res["rows"] += rows
    with open(os.path.join(a.out, "tile_overhead.json"), "w") as f:
        json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
