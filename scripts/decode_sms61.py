"""Session 61: does decode at 120-136 (sequence, key/value head) pairs go as fast as its SMs, or as fast as DRAM?

Where the grid has about as many pairs as SMs ((16,32,8,1,S,128): 128 pairs on 132 SMs) the API reads 2-5% behind
cuDNN (session 60 call 8's wide3: x0.95-0.98) and its kernels run one program a pair, leaving 4 SMs idle. If the time
of a one-part swap kernel (attn_decode_sm90_merged at 1 part: a program streams its pair's keys) stays flat from 124 to
132 pairs, each SM streams at its own pace and a schedule over every SM (parts across pairs) would gain about
132 / 128; if it grows with the pairs, DRAM sets the pace and it would not. Cells (B, 32, 4, S): the same bytes a pair
at 124 / 128 / 132 / 136 pairs (136: a second wave of 4), beside the API and cuDNN, graph replay, interleaved rounds,
medians in us; the rows print the bytes of K and V and the bandwidth they imply.

    PYTHONPATH=src:scripts python3 scripts/decode_sms61.py [--rounds 7] [--dims 64,128] [--keys 1024,4096,16384]
"""
import argparse
import statistics

import torch

from dhpfa.measure import bench
from dhpfa.measure.bench import interleaved_ms
from decode_merge56 import check, input_sets, run


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--dims", default="64,128")
    ap.add_argument("--keys", default="1024,4096,16384")
    ap.add_argument("--batches", default="31,32,33,34")
    a = ap.parse_args()
    gen = torch.Generator(device="cuda").manual_seed(61)
    dims = [int(x) for x in a.dims.split(",")]
    ok = all(check(33, 32, 4, 1023, d, 1, True, None, gen) for d in dims)
    print("checks", "OK" if ok else "FAIL", flush=True)
    peers = bench.peer_kernels(gqa=True)
    for d in dims:
        for sk in (int(x) for x in a.keys.split(",")):
            for b in (int(x) for x in a.batches.split(",")):
                ks = {"api": peers["dhpfa"], "m1": run(1, True), "cudnn": peers["sdpa_cudnn"]}
                sets = input_sets(gen, b, 32, 4, sk, d, 2 if sk >= 16384 else 3)
                t = interleaved_ms(ks, sets, False, rounds=a.rounds, graph=True, batch_ms=5.0)
                med = {n: statistics.median(v) * 1000 for n, v in t.items()}
                nbytes = 2 * b * 4 * sk * d * 2
                print((b, 32, 4, 1, sk, d), f"pairs {b * 4}", "  ".join(f"{n} {u:.2f}" for n, u in med.items()),
                      "  TB/s " + " ".join(f"{n} {nbytes / u / 1e6:.2f}" for n, u in med.items()), flush=True)
                del sets
                torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
