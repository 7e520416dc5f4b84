"""How much the persistent schedule's last partial wave costs (device run; session 26). The persistent Gluon builds give
program p the tiles p, p + P, p + 2P, ... (P = SM count), so with T tiles the busiest SM runs ceil(T / P) tiles while
the mean is T / P: at the 16K-token grid's D=128 S=16K cell (B=1, H=16, 128-row tiles: 2,048 tiles on 132 SMs) that is
16 against 15.52, 3% of the time. Times the API and cuDNN at head counts whose tiles fill the SMs exactly (H=33: 4,224
tiles = 32 waves) beside ones that do not, in interleaved rounds; TFLOPS per head count show the wave cost.

    PYTHONPATH=src python3 scripts/tile_waves.py [--out DIR] [--shapes "1,16,16384,128;1,33,16384,128"] [--rounds 9]
"""
import argparse
import json
import math
import os
import statistics

import torch

from dhpfa.kernels import dispatch
from dhpfa.measure import bench


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out")
    ap.add_argument("--shapes", default="1,16,16384,128;1,32,16384,128;1,33,16384,128;1,31,16384,128;"
                                        "2,33,8192,128;2,32,8192,128")
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--causal", type=int, default=0)
    ap.add_argument("--block-m", type=int, default=128, help="the build's tile rows (waves = tiles / SM count)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    sms = dispatch.sm_count(torch.device("cuda"))
    peers = bench.peer_kernels()
    kernels = {n: peers[n] for n in ("dhpfa", "sdpa_cudnn")}
    rows = []
    for spec in args.shapes.split(";"):
        b, h, s, d = (int(x) for x in spec.split(","))
        case = bench.Case(b, h, s, d, bool(args.causal))
        sets = bench.make_inputs(case, bench.n_sets_for(case))
        times = bench.interleaved_ms(kernels, sets, case.causal, rounds=args.rounds, batch_ms=25.0)
        tiles = b * h * math.ceil(s / args.block_m)
        tf = {n: case.flops() / statistics.median(t) / 1e9 for n, t in times.items()}
        rows.append(dict(shape=[b, h, s, d], causal=case.causal, tiles=tiles, waves=tiles / sms,
                         fill=tiles / sms / math.ceil(tiles / sms), tflops=tf, rounds=times))
        print(f"{spec:<18} tiles {tiles:5d} waves {tiles / sms:6.2f} fill {rows[-1]['fill']:.3f}  "
              + "  ".join(f"{n}={v:.0f}" for n, v in tf.items()), flush=True)
        del sets
        torch.cuda.empty_cache()
    with open(os.path.join(args.out, "tile_waves.json"), "w") as f:
        json.dump(dict(device=torch.cuda.get_device_name(), sms=sms, rows=rows), f, indent=1)


if __name__ == "__main__":
    main()
