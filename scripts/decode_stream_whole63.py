"""Session 63: decode of a little more than one wave of (sequence, key/value head) pairs, with whole pairs a program.
At D=128 x 1,024 keys the API (the stream build, one program an SM) reads x0.84-0.87 of cuDNN at 136-192 pairs
((34,32,4,1,1024,128) 25.83 against 21.73 us, session 62 call 2), while cuDNN's time grows with the pairs' bytes only
(128 pairs 20.19, 136 21.62). The stream build splits most pairs in two pieces and merges them at its end (a release,
an SC fence, a round trip, a merge: on every program's critical path), and its 8-or-9-block step costs x1.125 of a
wave's work. Here: attn_decode_sm90_stream with as many programs as pairs (each program one whole pair: no piece, no
arrival, the TAIL build stores it directly), on blocks and stages small enough for two or three programs an SM, so
every pair is resident at once and the DRAM, not a wave, sets the pace. Prediction: 136 pairs x 1,024 keys near 136 /
128 of the one-wave time (~23 us), x1.1 over the stream build.

float64 checks of every build first (outputs poisoned, odd key counts, a repeat bitwise equal), then CUDA-graph replay
in interleaved rounds (medians, us): the API (its variant named), the builds, cuDNN. The launcher allocates its outputs
with torch.empty (no fill kernels inside the timed graph).

    PYTHONPATH=src:scripts python3 scripts/decode_stream_whole63.py [--dims 128] [--keys 1024,4096] [--batches 32,34]
"""
import argparse
import json
import os
import statistics

import torch

from dhpfa.kernels import dispatch
from dhpfa.measure import bench
from dhpfa.measure.bench import interleaved_ms
from dhpfa.reference import attention_ref
from decode_merge56 import input_sets
from dhpfa.kernels import sm90_decode
from decode_stream_wide62 import api_variant

# name: (programs: "sms", "2sms" or "pairs"; BLOCK_N; STAGES; WHOLE_SKIP). Call 1 also ran w64s3 (pairs, 64, 3) at
# D=128 and s128x1 (sms, 128, 3), w128s3 (pairs, 128, 3), w64s3 (pairs, 64, 3) at D=64: behind w64s2 / w128s2.
BUILDS = {
    128: {"s128": ("sms", 128, 3, True), "w64s2": ("pairs", 64, 2, True), "w64s2n": ("pairs", 64, 2, False),
          # (call 5) k whole pairs a program, pairs / k programs (k dividing the pairs; else not timed)
          "k2": ("pairs/2", 64, 2, True), "k3": ("pairs/3", 64, 2, True), "k4": ("pairs/4", 64, 2, True),
          "k6": ("pairs/6", 64, 2, True), "k8": ("pairs/8", 64, 2, True), "w64s3": ("pairs", 64, 3, True),
          # (session 64) a program a pair on the stream build's own ring (the shipped binary), one wave or less
          "w128s3": ("pairs", 128, 3, True),
          # (session 64 call 5) two programs a pair (each pair in two pieces, merged at the end) on the smaller rings
          "p2w64s2": ("2pairs", 64, 2, True), "p2w64s3": ("2pairs", 64, 3, True),
          # (session 64 call 7) the flat schedule (pieces merged) on the smaller ring, 1.5 / 2 / 3 programs an SM
          "x15w64s2": ("x1.5", 64, 2, True), "x2w64s2": ("x2", 64, 2, True), "x3w64s2": ("x3", 64, 2, True),
          # (session 64 call 8) the PAIR_UNITS schedule (whole pairs a program, counts differing by at most one) on
          # the smaller ring at 1.3 / 1.5 x the SMs' programs
          "u13": ("u1.3", 64, 2, True), "u15": ("u1.5", 64, 2, True), "u20": ("u2.0", 64, 2, True),
          # (call 11) PAIR_UNITS balanced: k = ceil(pairs / (2 x SMs)) pairs a program at most, ceil(pairs / k) programs
          "b20": ("b2.0", 64, 2, True), "b15": ("b1.5", 64, 2, True),
          # (session 65) balanced at 3 x the SMs (the ring's three programs an SM)
          "b30": ("b3.0", 64, 2, True)},
    64: {"s128x2": ("2sms", 128, 3, True), "w128s2": ("pairs", 128, 2, True), "w128s2n": ("pairs", 128, 2, False),
         "k2": ("pairs/2", 128, 2, True), "k3": ("pairs/3", 128, 2, True), "k4": ("pairs/4", 128, 2, True),
         "k6": ("pairs/6", 128, 2, True), "k8": ("pairs/8", 128, 2, True), "w128s3": ("pairs", 128, 3, True),
         "x15w128s2": ("x1.5", 128, 2, True), "x2w128s2": ("x2", 128, 2, True), "x3w128s2": ("x3", 128, 2, True),
         "u13": ("u1.3", 128, 2, True), "u15": ("u1.5", 128, 2, True), "u20": ("u2.0", 128, 2, True),
         "b20": ("b2.0", 128, 2, True), "b15": ("b1.5", 128, 2, True), "b30": ("b3.0", 128, 2, True)},
}
CHECKS = [(34, 32, 4, 1023), (17, 32, 8, 2049), (50, 32, 4, 1), (40, 16, 4, 1000), (99, 32, 4, 129), (66, 32, 4, 1024),
          (33, 32, 8, 1023), (35, 32, 4, 4000),
          (24, 32, 4, 1025),  # (66 and 33: every program of s128 holds whole pairs; 24: fewer pairs than SMs)
          (9, 32, 32, 1023), (40, 8, 8, 1000),  # (session 66: MHA, groups of one)
          (9, 64, 4, 1023), (33, 128, 8, 1025)]  # (session 67: groups of 16, the NQ = 16 builds)


def programs(mode, sms, pairs):
    """The build's program count; 0 where "pairs/k" has k not dividing the pairs (not a whole-pair schedule)."""
    if mode.startswith("pairs/"):
        k = int(mode.split("/")[1])
        return pairs // k if pairs % k == 0 else 0
    if mode.startswith("x"):  # F programs an SM (the flat schedule: pieces where ranges cross pairs' bounds)
        return int(float(mode[1:]) * sms)
    if mode.startswith("u"):  # F programs an SM in whole pairs (PAIR_UNITS), at most the pairs
        return min(pairs, int(float(mode[1:]) * sms))
    if mode.startswith("b"):  # PAIR_UNITS: k = ceil(pairs / (F x SMs)) pairs a program at most, ceil(pairs / k) of them
        k = -(-pairs // int(float(mode[1:]) * sms))
        return -(-pairs // k)
    return {"sms": sms, "2sms": 2 * sms, "pairs": pairs, "2pairs": 2 * pairs}[mode]


def launch(q, k, v, n_prog, block_n, stages, skip, poison=False, units=False):
    """attn_decode_sm90_stream (its TAIL build) on q (B, 1, H, D), k, v (B, S_k, H_KV, D) with BLOCK_N, STAGES and
    WHOLE_SKIP of our own: (out, lse (B, H, 1)); outputs and workspace NaN when poisoned, else torch.empty (no fill
    kernels inside the timed graph)."""
    b, _, h, d = q.shape
    new = (lambda *a, **k: torch.full(*a, float("nan"), **k)) if poison else (lambda *a, **k: torch.empty(*a, **k))
    out = new(q.shape, dtype=q.dtype, device=q.device)
    lse_t = new((h, b), device=q.device)
    ws_o = new((4, b, h, d), device=q.device)
    ws_l = new((4, h, b), device=q.device)
    flags = torch.empty(b * k.shape[2] * 4, dtype=torch.int64, device=q.device)
    grid, args, kw = sm90_decode.stream_launch_args(q, k, v, ws_o, ws_l, out, lse_t, flags, d ** -0.5, n_prog, 4,
                                                    block_n, stages, pair_units=units)
    kw["WHOLE_SKIP"] = skip
    sm90_decode.attn_decode_sm90_stream[grid](*args, **kw)
    return out, lse_t.t().unsqueeze(-1)


def fn(mode, sms, pairs, block_n, stages, skip):
    n = programs(mode, sms, pairs)

    def f(q, k, v, causal=False):  # SDPA's layout
        return launch(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), n, block_n, stages, skip,
                      units=mode[0] in "ub")[0]
    return f


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--dims", default="128")
    ap.add_argument("--keys", default="1024,4096")
    ap.add_argument("--batches", default="32,34,40,45,48,50,60,66,75,99")
    ap.add_argument("--heads", default="32:4", help="query heads:key/value heads")
    ap.add_argument("--builds", default="", help="comma list of BUILDS names (default: all at the head dim)")
    ap.add_argument("--out", default="out")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    gen = torch.Generator(device="cuda").manual_seed(6301)
    sms = dispatch.sm_count(torch.device("cuda"))
    peers = bench.peer_kernels(gqa=True)
    rows, ok, bad = [], True, set()
    dims = [int(x) for x in a.dims.split(",")]
    h_, hk_ = (int(x) for x in a.heads.split(":"))
    for d in dims:
        builds = {n: c for n, c in BUILDS[d].items() if not a.builds or n in a.builds.split(",")}
        for b, h, hk, sk in CHECKS:
            q = torch.randn(b, 1, h, d, device="cuda", dtype=torch.bfloat16, generator=gen)
            k, v = (torch.randn(b, sk, hk, d, device="cuda", dtype=torch.bfloat16, generator=gen) for _ in range(2))
            ref, ref_lse = attention_ref(q, k, v, d ** -0.5)
            for name, (mode, bn, st, skip) in builds.items():
                n = programs(mode, sms, b * hk)
                if not n or n > b * hk * -(-sk // bn):  # more programs than blocks: the launcher refuses it
                    continue
                try:
                    u = mode[0] in "ub"
                    out, lse = launch(q, k, v, n, bn, st, skip, poison=True, units=u)
                    out2, lse2 = launch(q, k, v, n, bn, st, skip, poison=True, units=u)
                except Exception as e:  # noqa: BLE001 (a build that does not launch is reported and left out)
                    print("check", (b, h, hk, sk, d), name, "LAUNCH FAILED", repr(e)[:300], flush=True)
                    bad.add((d, name))
                    continue
                err = ((out.double().cpu() - ref).norm() / ref.norm()).item()
                lse_err = (lse.double().cpu()[..., 0] - ref_lse[..., 0]).abs().max().item()
                same = torch.equal(out, out2) and torch.equal(lse, lse2)
                good = err < 1e-2 and lse_err < 1e-2 and bool(torch.isfinite(out).all()) and same
                ok &= good
                if not good:
                    bad.add((d, name))
                print("check", (b, h, hk, sk, d), name, f"programs {n} err {err:.2e} lse {lse_err:.2e} "
                      f"repeat-equal {same}", "OK" if good else "FAIL", flush=True)
        print("checks", d, "OK" if ok else "FAIL", "left out:", sorted(bad), flush=True)
        for sk in (int(x) for x in a.keys.split(",")):
            for b in (int(x) for x in a.batches.split(",")):
                pairs = b * hk_
                sets = input_sets(gen, b, h_, hk_, sk, d, 2 if b * sk >= 32 * 16384 else 3)
                name, _ = api_variant(*sets[0])
                ks = {"api": peers["dhpfa"]}
                for bn_name, (mode, bn, st, skip) in builds.items():
                    if (d, bn_name) not in bad and 0 < programs(mode, sms, pairs) <= pairs * -(-sk // bn):
                        ks[bn_name] = fn(mode, sms, pairs, bn, st, skip)
                ks["cudnn"] = peers["sdpa_cudnn"]
                refused = {}  # (a build whose launcher refuses the cell: left out, named)
                t = interleaved_ms(ks, sets, False, rounds=a.rounds, graph=True, batch_ms=5.0, errors=refused)
                for n_, e in refused.items():
                    print("refused", (b, h_, hk_, 1, sk, d), n_, e, flush=True)
                med = {n: statistics.median(x) * 1000 for n, x in t.items()}
                print((b, h_, hk_, 1, sk, d), f"pairs {pairs} api={name}", "  ".join(f"{n} {u:.2f}" for n, u in
                                                                                      med.items()), flush=True)
                rows.append(dict(case=[b, h_, hk_, 1, sk, d], api=name, us=med))
                del sets
                torch.cuda.empty_cache()
                with open(os.path.join(a.out, "decode_stream_whole63.json"), "w") as f:
                    json.dump(dict(device=torch.cuda.get_device_name(), sms=sms, rows=rows, correct=ok,
                                   left_out=sorted(bad)), f, indent=1)


if __name__ == "__main__":
    main()
