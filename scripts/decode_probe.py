"""Decode-like calls (one query per sequence against a long key cache) through the API beside the SDPA backends, in
CUDA-graph replay (interleaved rounds). Prints us per call and the K/V bytes read per second (the bound a decode
kernel works against).

A fifth shape field is the key/value head count (grouped-query attention; SDPA runs with enable_gqa=True). With one
query per sequence the API packs each group's query heads as rows of one tile (api.pack_gqa); `unpacked` is the
variant the API chose before that (one tile per query head, tune.choose on the unpacked shape) launched directly.

    PYTHONPATH=src:scripts python3 scripts/decode_probe.py --out DIR [--shapes 1,32,4096,128[,8];...] (B,H,Sk,D[,Hkv])
        [--tiles ..] [--parts 8,16,..]
"""
import argparse
import json
import os
import statistics

import torch

import dhpfa
from dhpfa import api, tune
from dhpfa.kernels import variants
from dhpfa.kernels.sm90_fwd import SPLIT_KV_PARTS
from dhpfa.measure import bench
from dhpfa.measure.bench import interleaved_ms
from dhpfa.measure.leak import random_pool
from small_tiles import patched_call, variant_fn  # scripts/

T = variants.TileConfig
# --tiles: shipped builds launched directly beside the API's choice, by name
TILES = {"triton_m64n64s3_tma": ("attn_fwd_tma", T(64, 64, 4, 3)), "triton_m64n64s3_ptr": ("attn_fwd", T(64, 64, 4, 3)),
         "gluon_n128s2": ("attn_fwd_sm90_ws", T(128, 128, 4, 2, split=2, pingpong=True, persistent=True)),
         "gluon_x3": variants.SM90_GLUON_LONG[64],
         **{f"kv{n}": ("attn_fwd_sm90_ws", T(64, 128, 4, 2, split_kv=n, pv_overlap=True)) for n in SPLIT_KV_PARTS},
         # D=256's split builds (64-key blocks: 64x128 tiles do not fit its shared memory)
         **{f"kv{n}w": ("attn_fwd_sm90_ws", T(64, 64, 4, 2, split_kv=n, pv_overlap=True)) for n in SPLIT_KV_PARTS},
         "few_d256": variants.SM90_FEW_PROGRAMS[(256, False)]}


def forced_parts(call, parts):
    """`call` (the API's kernel) with variants' split-key tables narrowed to the one of `parts` programs per tile, from
    any length and share 1 (where parts x programs fits the SMs; 0: none, the choice without splits): the plan is made
    afresh inside, and dropped after, so the API's own calls keep theirs. In graph replay only the captured launch is
    timed."""
    tables = () if parts == 0 else ((variants._split_kv_tables(parts), 0, 1),)
    return patched_call(call, variants, "_SPLIT_KV_TABLES", tables)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out")
    ap.add_argument("--shapes", default="1,32,4096,128;4,32,4096,128;16,32,4096,128;16,32,16384,128;8,16,8192,64")
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--tiles", default="", help="comma-separated TILES to time as well (kvN: D=64/128, kvNw: D=256)")
    ap.add_argument("--parts", default="", help="comma-separated programs per tile (2-64; 0: no split) to force on "
                    "the API's call (api_kvN: the split-key tables narrowed to that one, so packed shapes stay packed)")
    ap.add_argument("--queries", type=int, default=1, help="queries per sequence (default 1)")
    ap.add_argument("--causal", action="store_true", help="causal, bottom-right (flash_attn_func; the query sees every "
                    "key): the API and the tiles only (SDPA's causal mask is top-left)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    res = []
    for spec in args.shapes.split(";"):
        fields = [int(x) for x in spec.split(",")]
        b, h, sk, d = fields[:4]
        hk = fields[4] if len(fields) > 4 else h
        sq = args.queries
        sets = random_pool((b, h, sq, d, sk, hk), torch.bfloat16, pool_size=4, seed=sk)
        errors = {}
        api._PLANS.clear()
        kernels = bench.peer_kernels(gqa=hk != h)
        if args.causal:
            kernels = {"dhpfa": lambda q, k, v, causal: dhpfa.flash_attn_func(
                q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), causal=causal)}
        if hk != h:
            before = tune.choose(torch.bfloat16, d, args.causal, sk, torch.device("cuda"), sm90=True,
                                 programs=b * h * -(-sq // variants.FEW_PROGRAMS_ROWS), seq_q=sq)
            kernels["unpacked"] = variant_fn(before, (b, h, sq, d))
        for n in filter(None, args.parts.split(",")):
            kernels[f"api_kv{n}"] = forced_parts(kernels["dhpfa"], int(n))
        for name in filter(None, args.tiles.split(",")):
            kernels[name] = variant_fn(variants.Variant(*TILES[name], torch.bfloat16, d, args.causal), (b, h, sq, d))
        api._PLANS.clear()  # the API's own plan (forced_parts drops the plans it makes)
        kernels["dhpfa"](*sets[0], args.causal)
        variant = next(iter(api._PLANS.values())).variant.name if api._PLANS else None
        times = interleaved_ms(kernels, sets, args.causal, rounds=args.rounds, batch_ms=5.0, graph=True, errors=errors)
        us = {n: statistics.median(t) * 1000 for n, t in times.items()}
        kv_bytes = 2 * b * hk * sk * d * 2
        res.append(dict(shape=[b, h, sq, sk, d], kv_heads=hk, variant=variant, us=us, errors=errors,
                        kv_gbps={n: kv_bytes / (u * 1e-6) / 1e9 for n, u in us.items()}))
        print(f"({b},{h},{sq},{sk},{d}) kv {hk} {variant}: " + "  ".join(f"{n}={u:.1f}us/{kv_bytes / u / 1e3:.0f}GB/s"
                                                           for n, u in us.items()), flush=True)
    with open(os.path.join(args.out, "decode_probe.json"), "w") as f:
        json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
