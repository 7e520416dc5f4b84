"""Where the time of a few-program call goes (device run): (1, H, 512, D) queries against seq_k keys, seq_k swept,
in CUDA-graph replay (interleaved rounds, as bench.interleaved_ms). The fit time = fixed + per_block * (seq_k / 64)
splits each kernel's time into what does not grow with the keys (launch, the first loads, the epilogue) and what
each 64-key block adds to every program's serial chain. An empty kernel's replay (scripts/launch_floor.py) is the
floor under `fixed`.

    PYTHONPATH=src:scripts python3 scripts/small_sweep.py --out DIR [--seq-k 64,128,256,512,1024,2048]
"""
import argparse
import dataclasses
import json
import os
import statistics

import numpy as np
import torch

from dhpfa.kernels import variants
from dhpfa.measure import bench
from dhpfa.measure.bench import interleaved_ms
from small_tiles import variant_fn  # scripts/

T = variants.TileConfig
KERNELS = {  # name -> (kernel, tiles): the shipped few-program choice at D=64 and its Gluon neighbours
    "triton_m64n64s3_ptr": ("attn_fwd", T(64, 64, 4, 3)),
    "gluon_x1_m64n64s3": ("attn_fwd_sm90_ws", T(64, 64, 4, 3)),
    "gluon_x1_m64n128s2": ("attn_fwd_sm90_ws", T(64, 128, 4, 2)),
    "gluon_x1_m64n256s2": ("attn_fwd_sm90_ws", T(64, 256, 4, 2)),  # session 13: 256-key blocks (D=64 only)
    # session 12: two programs per tile, half of its key blocks each; and the shipped long-key split (SPLIT_K)
    "gluon_x1_m64n128s2_kv2": ("attn_fwd_sm90_ws", T(64, 128, 4, 2, split_kv=2)),
    "gluon_x1_m64n128s2_kv4": ("attn_fwd_sm90_ws", T(64, 128, 4, 2, split_kv=4)),
    "gluon_splitk_m64n64s2": ("attn_fwd_sm90_ws", T(64, 64, 4, 2, split=2, split_k=True)),
    # session 13: causal, one tile per program instead of a heavy and a light one
    "gluon_splitk_m64n64s2_up": ("attn_fwd_sm90_ws", T(64, 64, 4, 2, split=2, split_k=True, unpaired=True)),
}
# session 13: the same Gluon builds with each softmax beside the previous block's PV GEMM (pv_overlap)
KERNELS.update({f"{n}_ov": (kern, dataclasses.replace(cfg, pv_overlap=True))
                for n, (kern, cfg) in list(KERNELS.items()) if kern == "attn_fwd_sm90_ws"})
# at D=128 the shipped few-program choice is the Gluon one-consumer 64x64 tiles (variants.SM90_FEW_PROGRAMS)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out")
    ap.add_argument("--seq-k", default="64,128,256,512,1024,2048")
    ap.add_argument("--heads", type=int, default=8)
    ap.add_argument("--d", type=int, default=64)
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--causal", action="store_true", help="causal (bottom-right aligned: seq_k - 512 offset)")
    ap.add_argument("--kernels", default="", help="comma-separated names of KERNELS to time (default: all)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    h, d, sq = args.heads, args.d, 512
    peers = bench.peer_kernels()
    res = {"device": torch.cuda.get_device_name(), "shape": [1, h, sq, d], "us": {}}
    for sk in (int(x) for x in args.seq_k.split(",")):
        sets = bench.make_inputs(bench.Case(1, h, sq, d, args.causal), 4, seed=sk, seq_k=sk)
        kernels = {"dhpfa": peers["dhpfa"], "sdpa_cudnn": peers["sdpa_cudnn"]}
        for name, (kern, cfg) in KERNELS.items():
            if args.kernels and name not in args.kernels.split(","):
                continue
            kernels[name] = variant_fn(variants.Variant(kern, cfg, torch.bfloat16, d, args.causal), (1, h, sq, d))
        # the choice for these lengths without the few-program rules (variants.select)
        kernels["select"] = variant_fn(variants.select(torch.bfloat16, d, args.causal, False, seq_k=sk, sm90=True),
                                       (1, h, sq, d))
        times = interleaved_ms(kernels, sets, args.causal, rounds=args.rounds, batch_ms=5.0, graph=True)
        res["us"][sk] = {n: statistics.median(t) * 1000 for n, t in times.items()}
        print(f"seq_k={sk:5d} " + "  ".join(f"{n}={u:.2f}" for n, u in res["us"][sk].items()), flush=True)
    sks = sorted(res["us"])
    res["fit"] = {}
    for n in res["us"][sks[0]]:
        per_block, fixed = (float(c) for c in np.polyfit([sk / 64 for sk in sks], [res["us"][sk][n] for sk in sks], 1))
        res["fit"][n] = dict(fixed_us=fixed, per_64key_block_us=per_block)
        print(f"fit {n:<22} fixed {fixed:.2f} us + {per_block:.3f} us per 64-key block")
    with open(os.path.join(args.out, "small_sweep.json"), "w") as f:
        json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
