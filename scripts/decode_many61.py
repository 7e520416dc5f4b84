"""Session 61: decode past the SMs' count of (sequence, key/value head) pairs. Call 1 (decode_sms61.py) read the API at
136 pairs x0.70-0.73 of cuDNN ((34,32,4,1,16384,128) 367 / 258 us): one program a pair (the forward kernels, or the swap
kernel at one part) runs 136 pairs in two waves on 132 SMs, the second holding 4 programs; cuDNN's time grows with the
bytes. Here the merged swap kernel with each pair in n parts (waves of shorter programs: 136 x 16 = 2,176 programs is
16.5 waves), in the shipped build (one program an SM: its ring of 3 x 128-key blocks and its merge buffer) and in a
build of two programs an SM ("two": D=128 3 x 64-key blocks, D=64 3 x 128-key; the merge buffer for 16 parts), so one
program's start overlaps another's stream. float64 checks first (odd key counts, outputs poisoned, two launches bitwise
equal), then CUDA-graph replay in interleaved rounds (medians, us) beside the API and cuDNN.

    PYTHONPATH=src:scripts python3 scripts/decode_many61.py [--rounds 7] [--dims 64,128] [--batches 32,34,50,66]
"""
import argparse
import statistics

import torch

from dhpfa.kernels import sm90_decode
from dhpfa.measure import bench
from dhpfa.measure.bench import interleaved_ms
from decode_merge56 import check, input_sets

TWO_CFG = (16, 8, False, True, True)  # (MAX_PARTS, CHUNK, PREFETCH, ASYNC, WIDE): a 64 KB / 32 KB merge buffer
TWO_BLOCK = {128: 64, 64: 128}


def fn(parts, block_n=128, cfg=None):
    def f(q, k, v, causal=False):  # SDPA's layout
        return sm90_decode.decode(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), parts=parts,
                                  block_n=block_n, merged=True, merge_cfg=cfg, split=0, even=True)[0]
    return f


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--dims", default="64,128")
    ap.add_argument("--keys", default="1024,4096,16384")
    ap.add_argument("--batches", default="32,34,50,66")
    ap.add_argument("--parts", default="2,4,8,16")
    ap.add_argument("--shapes", default="", help="B:H:H_kv;... instead of --batches' (B, 32, 4)")
    ap.add_argument("--no-two", action="store_true", help="without the two-an-SM build")
    a = ap.parse_args()
    gen = torch.Generator(device="cuda").manual_seed(61)
    dims = [int(x) for x in a.dims.split(",")]
    parts = [int(x) for x in a.parts.split(",")]
    ok = True
    for d in dims:
        for b, sk, p in ((34, 1023, 8), (9, 4099, 16), (50, 777, 4)):
            ok &= check(b, 32, 4, sk, d, p, True, None, gen, even=True, split=0)
            ok &= check(b, 32, 4, sk, d, p, True, TWO_CFG, gen, block_n=TWO_BLOCK[d], even=True, split=0)
    print("checks", "OK" if ok else "FAIL", flush=True)
    peers = bench.peer_kernels(gqa=True)
    for d in dims:
        for sk in (int(x) for x in a.keys.split(",")):
            shapes = [tuple(int(x) for x in s.split(":")) for s in a.shapes.split(";")] if a.shapes else \
                [(int(x), 32, 4) for x in a.batches.split(",")]
            for b, h, hk in shapes:
                ks = {"api": peers["dhpfa"], "p1": fn(1)}
                ks.update({f"p{p}": fn(p) for p in parts})
                if not a.no_two:
                    ks.update({f"two{p}": fn(p, TWO_BLOCK[d], TWO_CFG) for p in parts})
                ks["cudnn"] = peers["sdpa_cudnn"]
                sets = input_sets(gen, b, h, hk, sk, d, 2 if b * hk * sk >= 128 * 16384 else 3)
                t = interleaved_ms(ks, sets, False, rounds=a.rounds, graph=True, batch_ms=5.0)
                med = {n: statistics.median(v) * 1000 for n, v in t.items()}
                best = min((u, n) for n, u in med.items() if n not in ("api", "cudnn"))
                print((b, h, hk, 1, sk, d), f"pairs {b * hk}", "  ".join(f"{n} {u:.2f}" for n, u in med.items()),
                      f"  best {best[1]} x{med['cudnn'] / best[0]:.3f} of cudnn (api x{med['cudnn'] / med['api']:.3f})",
                      flush=True)
                del sets
                torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
