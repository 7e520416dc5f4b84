"""Sessions 16-18: 2-64 queries per sequence with grouped heads (speculative decoding's drafts) through the API, which
packs variants.pack_heads query heads of a group per tile (variants.packed_variant), beside the same calls unpacked
(api.PACK_GQA_DECODE = False: the choice before) and SDPA's flash and cuDNN backends (enable_gqa; non-causal, as SDPA's
is_causal aligns top-left). CUDA-graph replay, interleaved rounds, medians in us; xU = median of per-round speedups over
the unpacked call.

    PYTHONPATH=src:scripts python3 scripts/packed_queries.py --out DIR [--shapes B,H,H_kv,Sq,Sk,D[,c];...]
        [--parts 1,2,4,..]   (also time the packed call forced to each part count, pN; 1: no split)
        [--pp]               (also time the packed call on the two-consumer 128-row build, pp)
        [--nopp]             (also time the call without the two-consumer packed builds: the rule before session 18)
        [--slots16]          (also time slots16: the same packed call with 16-row slots, at most 4 heads a tile:
                              session 16's layout, through this kernel)
"""
import argparse
import json
import os
import statistics

import torch

import dhpfa
from dhpfa import api
from dhpfa.kernels import variants
from dhpfa.measure.bench import interleaved_ms
from small_tiles import patched_call  # scripts/

SHAPES = ("1,32,8,4,8192,128,c;1,32,8,8,16384,128,c;4,32,8,4,8192,128,c;8,32,8,16,4096,128,c;1,64,8,8,32768,128,c;"
          "1,32,8,4,8192,64,c;1,16,4,4,8192,256,c;1,32,8,4,8192,128;2,32,8,16,8192,96,c;"
          "32,32,8,4,8192,128,c;16,32,8,16,2048,128,c;64,32,8,4,512,128,c;8,64,8,8,4096,128,c;4,32,8,4,1000,128,c;"
          "32,32,8,4,8192,64,c;16,16,4,8,4096,256,c;"
          # session 17: groups of 8 with up to 8 queries (8 heads a tile), and groups of 2, 5, 6, 7 (not packed before)
          "1,64,8,4,16384,128,c;16,64,8,8,4096,128,c;1,28,4,4,8192,128,c;8,28,4,8,4096,128,c;1,16,8,4,8192,256,c;"
          "4,8,4,5,8192,256,c;1,40,8,3,16384,128,c;2,12,2,12,8192,128,c")


def api_call(q, k, v, causal):
    return dhpfa.flash_attn_func(q, k, v, causal=causal)


unpacked = patched_call(api_call, api, "PACK_GQA_DECODE", False)  # the choice before session 16's packing


def forced_parts(parts):
    """The API's packed call forced to `parts` programs per packed tile whatever the grid (1: the unsplit packed
    build): variants.packed_variant swapped for one that returns that build."""
    table = variants.SM90_PACKED if parts == 1 else variants._split_kv_tables(parts, variants.PACK_ROWS)

    def choose(dtype, head_dim, causal, *rest):
        return variants.Variant(*table[(head_dim, causal)], dtype, head_dim, causal)
    return patched_call(api_call, variants, "packed_variant", choose)


def two_consumers():
    """The API's packed call on the persistent two-consumer packed build (variants.SM90_PACKED_PP; session 18: 128-row
    tiles, 64 rows a consumer, ping-pong) whatever the grid, for 2-64 queries whose group packs 2+ heads a tile."""
    def choose(dtype, head_dim, causal, seq_q, seq_k, heads, kv_heads, batch, sm_count):
        if not 2 <= seq_q <= variants.PACK_MAX_QUERIES or heads % kv_heads \
                or variants.pack_heads(heads // kv_heads, seq_q, 128) < 2:
            return None
        # D < 96 is not shipped (compiled by the JIT here, for comparison)
        build = variants.SM90_PACKED_PP.get((head_dim, causal), variants._PACKED_PP)
        return variants.Variant(*build, dtype, head_dim, causal)
    return patched_call(api_call, variants, "packed_variant", choose)


def without_pp():
    """The API's call without the two-consumer packed builds (variants.SM90_PACKED_PP emptied): packed_variant's rule
    before session 18 (64-row packed tiles up to 32 queries, unpacked past)."""
    return patched_call(api_call, variants, "SM90_PACKED_PP", {})


def slots16():
    """The API's packed call with 16-row slots (at most 4 heads of up to 16 queries a tile, as session 16 laid tiles
    out), with the part-count rule of variants.packed_variant applied to the grid that gives."""
    import dataclasses

    def choose(dtype, head_dim, causal, seq_q, seq_k, heads, kv_heads, batch, sm_count):
        blocks = variants.pack_blocks(heads // kv_heads, seq_q, slot_rows=16)
        if not 2 <= seq_q <= variants.PACK_MAX_QUERIES or variants.pack_heads(heads // kv_heads, seq_q,
                                                                              slot_rows=16) < 2:
            return None
        programs = batch * kv_heads * blocks
        kernel, config = variants.SM90_PACKED[(head_dim, causal)]
        for table, least_seq_k, share in variants._PACKED_SPLIT_KV_TABLES:
            if table[(head_dim, causal)][1].split_kv * programs <= sm_count // share and seq_k >= least_seq_k:
                kernel, config = table[(head_dim, causal)]
                break
        return variants.Variant(kernel, dataclasses.replace(config, pack=16), dtype, head_dim, causal)
    return patched_call(api_call, variants, "packed_variant", choose)


def sdpa(backend):
    from torch.nn.attention import SDPBackend, sdpa_kernel
    be = {"flash": SDPBackend.FLASH_ATTENTION, "cudnn": SDPBackend.CUDNN_ATTENTION}[backend]

    def fn(q, k, v, causal):
        with sdpa_kernel([be]):
            return torch.nn.functional.scaled_dot_product_attention(
                q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), enable_gqa=True)
    return fn


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out")
    ap.add_argument("--shapes", default=SHAPES)
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--parts", default="", help="comma-separated part counts to force on the packed call as well")
    ap.add_argument("--no-peers", action="store_true", help="leave out the SDPA backends")
    ap.add_argument("--slots16", action="store_true", help="also time 16-row slots (session 16's layout)")
    ap.add_argument("--twin", action="store_true", help="also time the API's call a second time (the noise floor)")
    ap.add_argument("--pp", action="store_true", help="also time the two-consumer packed build (SM90_PACKED_PP)")
    ap.add_argument("--nopp", action="store_true", help="also time the call without the two-consumer packed builds")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    kernels = {"dhpfa": api_call, "unpacked": unpacked}
    if not args.no_peers:
        kernels.update(sdpa_flash=sdpa("flash"), sdpa_cudnn=sdpa("cudnn"))
    kernels.update({f"p{n}": forced_parts(int(n)) for n in args.parts.split(",") if n})
    if args.slots16:
        kernels["slots16"] = slots16()
    if args.twin:
        kernels["twin"] = lambda *a: api_call(*a)
    if args.nopp:
        kernels["nopp"] = without_pp()
    if args.pp:
        kernels["pp"] = two_consumers()
    rows = []
    for spec in args.shapes.split(";"):
        f = spec.split(",")
        causal = f[-1] == "c"
        b, h, hk, sq, sk, d = (int(x) for x in (f[:-1] if causal else f))
        g = torch.Generator(device="cuda").manual_seed(sq * sk)
        sets = [tuple(torch.randn(b, n, hh, d, device="cuda", dtype=torch.bfloat16, generator=g)
                      for n, hh in ((sq, h), (sk, hk), (sk, hk))) for _ in range(3)]
        api._PLANS.clear()
        dhpfa.flash_attn_func(*sets[0], causal=causal)
        (plan,) = api._PLANS.values()
        a = dhpfa.flash_attn_func(*sets[0], causal=causal)
        same = bool((a.float() - unpacked(*sets[0], causal).float()).abs().max() < 2e-2)
        errors = {}
        times = interleaved_ms(kernels, sets, causal, rounds=args.rounds, batch_ms=20.0, graph=True, errors=errors)
        us = {n: statistics.median(t) * 1e3 for n, t in times.items()}
        xu = statistics.median(u / p for p, u in zip(times["dhpfa"], times["unpacked"]))
        rows.append(dict(shape=spec, variant=plan.variant.name, us=us, xU=xu, close_to_unpacked=same, errors=errors))
        print(f"({spec}) " + "  ".join(f"{n} {t:.1f}" for n, t in us.items()) + f"  xU {xu:.2f}  "
              f"[{plan.variant.config.label()}] close: {same}", flush=True)
        del sets
        torch.cuda.empty_cache()
    json.dump(rows, open(os.path.join(args.out, "packed_queries.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
