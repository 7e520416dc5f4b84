"""Session 62: where the stream decode kernel (attn_decode_sm90_stream, its TAIL build shipped this session) beats the
API's choice past one wave of (sequence, key/value head) pairs. Session 61's call 14 read the TAIL build ahead of the
API at D=128 264 pairs x 1,024 keys (37.20 / 38.51 us) and 400 pairs (58.67 / 61.57; 4,096 keys 197.29 / 202.24), where
variants.swap_decode_stream does not send calls. CUDA-graph replay, interleaved rounds, medians (us): the API (its
variant named), the stream build at SWAP_DECODE_STREAM_PER_SM programs an SM (and one an SM at D=64), cuDNN; a float64
check of the stream build at each cell first. JSON under --out.

    PYTHONPATH=src:scripts python3 scripts/decode_stream_wide62.py [--rounds 5] [--dims 64,128] [--keys 1024,...]
"""
import argparse
import json
import os
import statistics

import torch

import dhpfa
from dhpfa import api
from dhpfa.kernels import dispatch, sm90_decode, variants
from dhpfa.measure import bench
from dhpfa.measure.bench import interleaved_ms
from dhpfa.reference import attention_ref
from decode_merge56 import input_sets
from decode_stream61 import stream_fn
from small_tiles import patched_call


def api_variant(q, k, v):
    """The API's variant name for a call (SDPA's layout), and its output."""
    api._PLANS.clear()
    out = dhpfa.scaled_dot_product_attention(q, k, v, enable_gqa=True)
    names = sorted({p.variant.name for p in api._PLANS.values() if p.variant is not None})
    return ";".join(names) or "?", out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--dims", default="128,64")
    ap.add_argument("--keys", default="1024,2048,4096,16384")
    ap.add_argument("--batches", default="35,40,50,66,75,100,130")
    ap.add_argument("--out", default="out")
    ap.add_argument("--check-most", type=int, default=1 << 28,
                    help="the float64 check only where pairs x keys x D is at most this (the host reference's memory: "
                         "call 4's 536 pairs x 16,384 keys ran the machine out of it)")
    ap.add_argument("--prev-waves", type=int, default=0,
                    help="also time the API with SWAP_DECODE_STREAM_WAVES[128] at this many waves (api_prev)")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    gen = torch.Generator(device="cuda").manual_seed(6201)
    sms = dispatch.sm_count(torch.device("cuda"))
    peers = bench.peer_kernels(gqa=True)
    rows, ok = [], True
    for d in (int(x) for x in a.dims.split(",")):
        per = variants.SWAP_DECODE_STREAM_PER_SM[d]
        for sk in (int(x) for x in a.keys.split(",")):
            for b in (int(x) for x in a.batches.split(",")):
                sets = input_sets(gen, b, 32, 4, sk, d, 2 if b * sk >= 32 * 16384 else 3)
                q, k, v = sets[0]
                name, _ = api_variant(q, k, v)
                err = float("nan")
                if b * 4 * sk * d <= a.check_most:
                    ref, _ = attention_ref(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), d ** -0.5)
                    out = stream_fn(per * sms, True)(q, k, v).double().cpu()
                    err = ((out - ref).norm() / ref.norm()).item()
                    ok &= err < 1e-2
                ks = {"api": peers["dhpfa"], f"stream{per}": stream_fn(per * sms, True)}
                if a.prev_waves:
                    ks["api_prev"] = patched_call(peers["dhpfa"], variants, "SWAP_DECODE_STREAM_WAVES",
                                                  {**variants.SWAP_DECODE_STREAM_WAVES, 128: a.prev_waves})
                if per != 1:
                    ks["stream1"] = stream_fn(sms, True)
                ks["cudnn"] = peers["sdpa_cudnn"]
                t = interleaved_ms(ks, sets, False, rounds=a.rounds, graph=True, batch_ms=5.0)
                med = {n: statistics.median(x) * 1000 for n, x in t.items()}
                best = min((n for n in med if n.startswith("stream")), key=med.get)
                print((b, 32, 4, 1, sk, d), f"pairs {b * 4}", "  ".join(f"{n} {u:.2f}" for n, u in med.items()),
                      f"  {best} x{med['api'] / med[best]:.3f} of api  err {err:.1e}  [{name.split('-')[-1]}"
                      f" {name.split('-')[0]}]", flush=True)
                rows.append(dict(case=[b, 32, 4, 1, sk, d], pairs=b * 4, us=med, api_variant=name, err=err))
                del sets, q, k, v
                torch.cuda.empty_cache()
                with open(os.path.join(a.out, "decode_stream_wide62.json"), "w") as f:
                    json.dump(dict(device=torch.cuda.get_device_name(), sms=sms, rows=rows, correct=ok), f, indent=1)
    print("checks", "OK" if ok else "FAIL", flush=True)


if __name__ == "__main__":
    main()
