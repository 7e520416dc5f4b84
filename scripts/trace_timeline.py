"""Where a two-consumer persistent Gluon build spends its time: the timeline build (sm90_fwd TRACE, never shipped)
writes SM clock stamps per tile and per key block for each consumer warpgroup and the producer warp. This script checks
the plain build against float64 on odd shapes and the traced build's output bitwise against the plain one, times both
(the stamps' cost), and sums the stamps of one launch into where the cycles go.

    PYTHONPATH=src:scripts python3 scripts/trace_timeline.py --case 128:32:16:512:causal --config n64s3_bal --out DIR
    python3 scripts/trace_timeline.py --summarise DIR/trace_*.npz      # again, offline, from the saved words

Records (words of sm90_fwd.TRACE_SLOTS per tile, per role; clocks are %clock, per SM, 32 bits; the word numbers are
sm90_fwd's TRACE_* constants: B0 = TRACE_BLOCK0 = 5, NB = TRACE_BLOCKS = 13, TRACE_SKIP_WORD = 61, TRACE_P_BLOCKS = 19):
- consumer W (roles 0, 1): 0 tile start (before Q's wait), 1 Q ready, 2 key blocks done, 3 epilogue done (O stored),
  4 blocks it computes, TRACE_SKIP_WORD (SKIP builds) the tile's blocks past its own released; block t < NB - 1 at
  B0 + 4 t (later blocks share the last; sm90_fwd._block_record): a before the K/V waits, b after them, c after its
  GEMM turn, d after S = Q K^T has completed; the last PV GEMM's a-d at B0 + 4 NB.
- producer (role 2): 0 before the Q slot's wait, 1 after it (Q_DOUBLE: the next tile's Q buffer, during this tile), 2
  the tile's last K/V issued, 4 blocks; block j < TRACE_P_BLOCKS at B0 + 3 j: before the K slot's wait, after it, after
  the V slot's wait.
"""
import argparse
import json
import os
import sys

import numpy as np
import torch

from dhpfa.kernels import sm90_fwd
from dhpfa.measure.bench import interleaved_ms

TILES, SLOTS, ROLES, NB = (sm90_fwd.TRACE_TILES.value, sm90_fwd.TRACE_SLOTS.value, sm90_fwd.TRACE_ROLES.value,
                           sm90_fwd.TRACE_BLOCKS.value)
B0, SKIP_WORD, P_BLOCKS = sm90_fwd.TRACE_BLOCK0.value, sm90_fwd.TRACE_SKIP_WORD.value, sm90_fwd.TRACE_P_BLOCKS.value
PV = B0 + 4 * NB  # the consumers' last-PV words


NAN_BITS = 0x7FC00000  # the trace words' initial value (float NaN): a stamp never written


def _d(a, b):
    """Clock differences mod 2^32 (int64)."""
    return (b.astype(np.int64) - a.astype(np.int64)) % (1 << 32)


def summarise(words, tiles_per_cta):
    """Cycle sums per category from the trace words ([CTAs, ROLES, TILES, SLOTS] int32) of a launch whose program p ran
    tiles_per_cta[p] tiles. Returns a dict of per-CTA means (cycles) and fractions of the consumers' span."""
    out = {}
    spans, cats, steps = [], {}, {}

    def add(name, v):
        cats.setdefault(name, []).append(float(v))
    for p, nt in enumerate(tiles_per_cta):
        nt = min(nt, TILES)
        if nt == 0:
            continue
        for w in (0, 1):
            r = words[p, w, :nt]
            start, end = r[0, 0], r[nt - 1, 3]
            span = _d(start, end)
            spans.append(span)
            q_wait = _d(r[:, 0], r[:, 1]).sum()
            epi = _d(r[:, 2], r[:, 3]).sum()
            skipped = r[:, SKIP_WORD] != NAN_BITS  # SKIP builds: the skipped blocks' release, then the epilogue proper
            skip = _d(r[skipped, 2], r[skipped, SKIP_WORD]).sum() if skipped.all() else 0
            gaps = _d(r[:-1, 3], r[1:, 0]).sum() if nt > 1 else 0
            data = turn = gemm = other = 0
            for i in range(nt):
                n_own = int(r[i, 4])
                recs = [r[i, B0 + 4 * t: B0 + 4 * t + 4] for t in range(min(n_own, NB - 1))]
                for t, (a, b, c, d) in enumerate(recs):
                    data += _d(a, b)
                    turn += _d(b, c)
                    gemm += _d(c, d)
                    if t + 1 < len(recs) or n_own <= NB - 1:  # the step's remainder (softmax, PV) up to the next
                        rest = _d(d, recs[t + 1][0] if t + 1 < len(recs) else r[i, PV])  # block's waits
                        other += rest
                        steps.setdefault("first" if t == 0 else "later", []).append(
                            (_d(a, b), _d(b, c), _d(c, d), rest))
                a, b, c, d = r[i, PV: PV + 4]
                data += _d(a, b)
                turn += _d(b, c)
                gemm += _d(c, d)
            add(f"c{w}_span", span)
            add(f"c{w}_q_wait", q_wait)
            add(f"c{w}_epilogue", epi)
            add(f"c{w}_epilogue_skip_release", skip)
            add(f"c{w}_between_tiles", gaps)
            add(f"c{w}_kv_wait", data)
            add(f"c{w}_turn_wait", turn)
            add(f"c{w}_s_gemm", gemm)
            add(f"c{w}_step_rest", other)
            add(f"c{w}_mainloop", _d(r[:, 1], r[:, 2]).sum())
        r = words[p, 2, :nt]
        add("p_q_slot_wait", _d(r[:, 0], r[:, 1]).sum())
        ek = ev = 0
        for i in range(nt):
            for j in range(min(int(r[i, 4]), P_BLOCKS)):
                s0, s1, s2 = r[i, B0 + 3 * j: B0 + 3 * j + 3]
                ek += _d(s0, s1)
                ev += _d(s1, s2)
        add("p_k_slot_wait", ek)
        add("p_v_slot_wait", ev)
    span = float(np.mean(spans))
    for k, v in cats.items():
        m = float(np.mean(v))
        out[k] = {"mean_cycles": round(m), "of_span": round(m / span, 4)}
    for kind, rows in steps.items():  # per key block (both consumers): K/V wait, turn wait, S GEMM, the rest
        m = np.mean(np.array(rows, dtype=np.float64), axis=0)
        out[f"block_{kind}"] = dict(zip(("kv_wait", "turn_wait", "s_gemm", "rest", "count"),
                                        [round(float(x)) for x in m] + [len(rows)]))
    out["tiles_per_cta_max"] = int(max(tiles_per_cta))
    return out


def tiles_per_program(grid, units, tiles_of_unit):
    """Tiles each program of a persistent grid runs (units p, p + grid, ...)."""
    return [sum(tiles_of_unit(u) for u in range(p, units, grid)) for p in range(grid)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--case", default="128:32:16:512:causal", help="D:B:H:S[:causal]")
    ap.add_argument("--config", default="n64s3_bal",
                    help="a scripts/ab_sm90.py CONFIGS name (two consumers, persistent)")
    ap.add_argument("--out", default="out")
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--dtype", default="bfloat16")
    ap.add_argument("--summarise", nargs="*")
    a = ap.parse_args()
    if a.summarise:
        for f in a.summarise:
            z = np.load(f)
            print(f, json.dumps(summarise(z["words"], z["tiles"].tolist()), indent=1))
        return
    from ab_sm90 import CONFIGS
    from sm90_check import check
    d, b, h, s, *rest = a.case.split(":")
    d, b, h, s, causal = int(d), int(b), int(h), int(s), bool(rest and rest[0] == "causal")
    dtype = getattr(torch, a.dtype)
    tiles = dict(CONFIGS[a.config][1])
    os.makedirs(a.out, exist_ok=True)
    worst, bad = check(b, s, s, h, h, d, causal, dtype, dict(tiles, trace=False))
    g = torch.Generator(device="cuda").manual_seed(7)
    q, k, v = (torch.randn(b, s, h, d, device="cuda", dtype=dtype, generator=g) for _ in range(3))
    out = torch.empty_like(q)
    grid, _, _ = sm90_fwd.launch_args(q, k, v, out, torch.empty(1, device="cuda"), d ** -0.5, causal, 0, **tiles)
    bh = b * h
    lse_plain = torch.empty(bh * s, device="cuda")
    lse_trace = torch.full((bh * s + sm90_fwd.trace_words(grid),), float("nan"), device="cuda")
    ws = tiles.pop("warp_specialized", True)

    def run(trace):  # launch_args passes lse's pointer only: the trace build's words follow the LSE rows
        sm90_fwd.launch(q, k, v, out, lse_trace if trace else lse_plain, d ** -0.5, causal, 0, warp_specialized=ws,
                        trace=trace, **tiles)

    run(False)
    torch.cuda.synchronize()
    ref = out.clone()
    run(True)
    torch.cuda.synchronize()
    same = torch.equal(ref, out) and torch.equal(lse_plain, lse_trace[:bh * s])
    t = interleaved_ms({"plain": lambda *_: run(False), "trace": lambda *_: run(True)}, [(q, k, v)], causal,
                       rounds=a.rounds, graph=True)
    times = {k: float(np.median(v)) * 1e3 for k, v in t.items()}  # us per call, graph replay
    run(False)  # the traced launch right after a plain one (back to back, as in the timings)
    run(True)
    torch.cuda.synchronize()
    words = lse_trace[bh * s:].view(torch.int32).view(grid[0], ROLES, TILES, SLOTS).cpu().numpy()
    num_m = -(-s // tiles["block_m"])
    if causal:
        half = (num_m + 1) // 2
        units = bh * half
        per_unit = [2 - int(num_m % 2 == 1 and (u % half) == half - 1) for u in range(half)]
        tiles_of = lambda u: per_unit[u % half]  # noqa: E731
    else:
        units = bh * num_m
        tiles_of = lambda u: 1  # noqa: E731
    tpp = tiles_per_program(grid[0], units, tiles_of)
    name = f"trace_{a.config}_d{d}_b{b}_h{h}_s{s}{'_causal' if causal else ''}"
    np.savez_compressed(os.path.join(a.out, name + ".npz"), words=words, tiles=np.array(tpp))
    summ = summarise(words, tpp)
    res = dict(case=a.case, config=a.config, grid=grid[0], worst_rel_err=worst, bad=bad, trace_output_bitwise=same,
               ms=times, summary=summ, device=torch.cuda.get_device_name())
    with open(os.path.join(a.out, name + ".json"), "w") as f:
        json.dump(res, f, indent=1)
    print(name, f"err {worst:.2e} bad {bad} same {same}", {k: round(v, 2) for k, v in times.items()}, "us")
    for key, val in summ.items():
        if isinstance(val, dict) and "mean_cycles" in val:
            print(f"  {key:22s} {val['mean_cycles']:>10d}  {val['of_span']:.3f}")
        else:
            print(f"  {key:22s} {val}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
