"""Session 45: D=64 between the short tiles and the three-consumer build. Where both may run (non-causal 1,025-4,096
keys, causal 4,097-8,192: variants.select takes the 192-row persistent build SM90_GLUON_LONG from GLUON_LONG_SEQ_K), a
grid of few heads leaves the persistent build a last wave of few tiles (peer_sweep: (1,8,4096,64) 100.8 us against
cuDNN's 77.5, 176 tiles of 192 rows on 132 SMs), where the 64-row short tiles (four CTAs an SM) fill one. Graph replay,
interleaved rounds in random order: the API, cuDNN, the 192-row build (x3) and the short tiles (short) launched directly,
over head counts at B = 1 (S_q = S_k, causal bottom-right = top-left).

    PYTHONPATH=src:scripts python3 scripts/wave_rule_ab.py --out DIR [--rounds 9] [--check]
"""
import argparse
import json
import os
import statistics

import torch

from dhpfa.kernels import variants
from dhpfa.measure import bench
from dhpfa.measure.bench import interleaved_ms
from small_tiles import patched_call, variant_fn

CASES = [(h, s, False) for s in (2048, 4096) for h in (6, 8, 12, 16, 24, 32, 48, 64)] + \
        [(h, s, True) for s in (4096, 8192) for h in (4, 8, 16, 32)]
# --causal (call 8): causal calls where select takes the short tiles (seq_k <= GLUON_LONG_SEQ_K[True]), the 192-row
# build's paired units in one wave or a little more
CAUSAL = [(h, s, True) for s in (2048, 3072, 4096) for h in (5, 6, 8, 10, 12, 16)]
# --long (call 11): non-causal past SHORT_SEQ_K, where select has only the 192-row build
LONG = [(h, s, False) for s, hs in ((8192, (6, 8, 12, 16, 20)), (16384, (4, 8, 12))) for h in hs]
# --check (call 6): the API under variants.long_tiles_fill against the API without it (api_prev), shapes outside the fit
CHECK = [(8, 3000, False), (10, 2048, False), (20, 4096, False), (40, 2048, False), (4, 1536, False), (128, 2048, False),
         (8, 4096, True)]
# --check --causal (call 9): the causal side of the rule (LONG_TILES_CAUSAL_SEQ out of reach in api_prev)
CHECK_CAUSAL = [(10, 3500, True), (12, 3800, True), (8, 4096, True), (9, 3072, True), (14, 4096, True), (32, 4096, True)]
# --x2 (session 46 call 2): the two-consumer persistent build on 128-row tiles (x2: variants' D=128 n128s2 shape; x2qd
# with two Q buffers) beside x3 and the short tiles, where the wave rule takes the short tiles and cuDNN still leads
# ((1,8,4096,64): 80.8 us against 77.8, session 45; 256 tiles of 128 rows are 1.94 waves of 132 SMs)
X2 = [(h, s, False) for s, hs in ((4096, (6, 8, 12, 16)), (2048, (8, 16, 24)), (3072, (8, 12)), (8192, (4, 8)))
      for h in hs]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out")
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--check", action="store_true", help="the rule through the API against the API without it")
    ap.add_argument("--causal", action="store_true", help="the causal cases (CAUSAL)")
    ap.add_argument("--long", action="store_true", help="the cases past SHORT_SEQ_K (LONG)")
    ap.add_argument("--x2", action="store_true", help="the X2 cases, with the two-consumer builds")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    peers = bench.peer_kernels()
    d = 64
    res = []
    cases = (CHECK_CAUSAL if args.causal else CHECK) if args.check else CAUSAL if args.causal else \
        LONG if args.long else X2 if args.x2 else CASES
    for h, s, causal in cases:
        x3 = variants.Variant(*variants.SM90_GLUON_LONG[d], torch.bfloat16, d, causal)
        short = variants.Variant(*variants.SM90_SHORT[d], torch.bfloat16, d, causal)
        kernels = {"api": peers["dhpfa"], "sdpa_cudnn": peers["sdpa_cudnn"]}
        if args.check:
            kernels["api_prev"] = patched_call(peers["dhpfa"], variants, "LONG_TILES_CAUSAL_SEQ", 1 << 62) if causal \
                else patched_call(peers["dhpfa"], variants, "LONG_TILES_EDGE", float("inf"))
        else:
            kernels.update(x3=variant_fn(x3, (1, h, s, d)), short=variant_fn(short, (1, h, s, d)))
            if args.x2:
                for name, qd in (("x2", False), ("x2qd", True)):
                    cfg = variants.TileConfig(128, 128, 4, 2, split=2, pingpong=True, persistent=True, q_double=qd)
                    kernels[name] = variant_fn(variants.Variant("attn_fwd_sm90_ws", cfg, torch.bfloat16, d, causal),
                                               (1, h, s, d))
        g = torch.Generator(device="cuda").manual_seed(h + s)
        sets = [tuple(torch.randn(1, h, s, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(3))
                for _ in range(3)]
        times = interleaved_ms(kernels, sets, causal, rounds=args.rounds, graph=True, batch_ms=10.0)
        us = {n: statistics.median(t) * 1000 for n, t in times.items()}
        x = {n: statistics.median(a / c for a, c in zip(times["api"], t)) for n, t in times.items()}
        res.append(dict(h=h, s=s, causal=causal, us=us, speedup_vs_api=x,
                        tiles={"x3": h * -(-s // 192), "short": h * -(-s // 64), "x2": h * -(-s // 128)}))
        print(f"(1,{h},{s},{d}){' causal' if causal else ''}: " +
              "  ".join(f"{n}={u:.2f}us(x{x[n]:.3f})" for n, u in us.items()), flush=True)
        with open(os.path.join(args.out, "wave_rule_ab.json"), "w") as f:
            json.dump(dict(device=torch.cuda.get_device_name(), results=res), f, indent=1)


if __name__ == "__main__":
    main()
