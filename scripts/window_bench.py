"""Local windows and soft-capping on the device (session 31): the Hopper varlen builds (attn_fwd_sm90_varlen_local /
_softcap / _local_softcap) against the portable varlen kernel on the same calls, FlashAttention-2's windowed kernel
(torch's aten._flash_attention_forward with window_size_left / right; it has no soft-cap), and dhpfa's own call
without the window and the cap (the dense Hopper kernel: the ceiling a windowed call's work would reach at full speed).

    PYTHONPATH=src python3 scripts/window_bench.py --out $OUT/window [--rounds 9]

Cases: flash_attn_func (B, S, H, D) with (window, softcap) as Mistral (causal, 4095 left), Gemma-2 (D=256, causal,
4095 left, cap 50) and a short window (causal, 255 left), at S = 8K / 16K; and flash_attn_varlen_func on mixed lengths
(64-4096) with a window of 1023 and a cap of 30. TFLOPS count only visible (query, key) pairs, the same for every
kernel. CUDA-graph replays, kernels interleaved in random order per round (bench.interleaved_ms). (Session 31's
--ab-merged / --ab-tanh A/Bs of the kernel's loop form and tanh ran at d052901; both options left with them.)
"""
import argparse
import json
import os
import random
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src"))
import dhpfa  # noqa: E402
from dhpfa import api  # noqa: E402
from dhpfa.kernels import dispatch, variants  # noqa: E402
from dhpfa.measure import stats  # noqa: E402
from dhpfa.measure.bench import interleaved_ms  # noqa: E402


def visible(sq, sk, causal, left, right):
    """(query, key) pairs seen under flash-attn's bottom-right aligned window (a negative side unbounded)."""
    n = 0
    for i in range(sq):
        lo = 0 if left < 0 else max(0, i + sk - sq - left)
        r = 0 if causal else right
        hi = sk - 1 if r < 0 else min(sk - 1, i + sk - sq + r)
        n += max(0, hi - lo + 1)
    return n


def offsets(lens):
    cu = [0]
    for n in lens:
        cu.append(cu[-1] + n)
    return torch.tensor(cu, dtype=torch.int32, device="cuda")


def run(label, lens, d, causal, window, cap, rounds, dense_shape=None):
    """One case on packed sequences `lens` (dense_shape (B, S): the same rows as a (B, S, H, D) flash_attn_func call)."""
    api._PLANS.clear()
    h = hk = 2048 // d
    total, mx = sum(lens), max(lens)
    cu = offsets(lens)
    g = torch.Generator(device="cuda").manual_seed(d + len(lens))
    packed = [tuple(torch.randn(total, hh, d, device="cuda", dtype=torch.bfloat16, generator=g) * (2 if cap else 1)
                    for hh in (h, hk, hk)) for _ in range(3)]
    local, win, _ = api._check_flash_options(0.0, window, cap, None, causal)
    scale = d ** -0.5
    lse = torch.empty(h, total, device="cuda")

    def forced(hopper):
        if hopper:
            var = variants.varlen_sm90_variant(torch.bfloat16, d, causal and not local, local=local, softcap=cap > 0)
        else:
            var = variants.varlen_variant(torch.bfloat16, d, causal and not local, local=local, softcap=cap > 0)

        def fn(q, k, v, causal_):
            out = api._varlen_out(q, 64) if hopper else torch.empty_like(q)
            dispatch.launch_varlen(var, q, k, v, out, lse, cu, cu, mx, scale, win, cap)
            return out
        return fn

    def fa2(q, k, v, causal_):
        return torch.ops.aten._flash_attention_forward(q, k, v, cu, cu, mx, mx, 0.0, causal, False,
                                                       window_size_left=window[0],
                                                       window_size_right=0 if causal else window[1])[0]
    if dense_shape is None:
        api_call = (lambda q, k, v, c: dhpfa.flash_attn_varlen_func(q, k, v, cu, cu, mx, mx, causal=causal,
                                                                     window_size=window, softcap=cap))
        full = (lambda q, k, v, c: dhpfa.flash_attn_varlen_func(q, k, v, cu, cu, mx, mx, causal=causal))
    else:
        b, s = dense_shape
        api_call = (lambda q, k, v, c: dhpfa.flash_attn_func(q.view(b, s, h, d), k.view(b, s, hk, d),
                                                             v.view(b, s, hk, d), causal=causal, window_size=window,
                                                             softcap=cap))
        full = (lambda q, k, v, c: dhpfa.flash_attn_func(q.view(b, s, h, d), k.view(b, s, hk, d),
                                                         v.view(b, s, hk, d), causal=causal))
    kernels = {"dhpfa": api_call, "hopper": forced(True), "portable": forced(False), "dhpfa_no_window": full}
    if not cap:
        kernels["fa2"] = fa2
    # agreement (a sanity check; the float64 tests are tests/test_varlen.py)
    ours = api_call(*packed[0], causal).float().reshape(total, h, d)
    chosen = sorted({p.variant.kernel for p in api._PLANS.values() if isinstance(p, api._VarlenPlan)
                     and p.variant is not None})
    rel, errors = {}, {}
    for name in [n for n in kernels if n not in ("dhpfa", "dhpfa_no_window")]:
        try:
            theirs = kernels[name](*packed[0], causal).float().reshape(total, h, d)
            rel[name] = float((ours - theirs).norm() / ours.norm())
        except Exception as e:  # noqa: BLE001 (a peer that does not take the case)
            errors[name] = f"{type(e).__name__}: {str(e)[:160]}"
            kernels.pop(name)
    times = interleaved_ms(kernels, packed, causal, rounds=rounds, graph=True, errors=errors)
    pairs = sum(visible(n, n, causal, *window) for n in lens)
    pairs_full = sum(visible(n, n, causal, -1, -1) for n in lens)
    row = {"case": label, "d": d, "causal": causal, "window": list(window), "softcap": cap, "batch": len(lens),
           "total": total, "max": mx, "api_kernels": chosen, "rel_diff": rel, "errors": errors}
    for name, ts in times.items():
        ms = stats.median(ts)
        work = pairs_full if name == "dhpfa_no_window" else pairs
        row[name] = {"ms": ms, "tflops": 4 * d * h * work / ms / 1e9}
    return row


def leak_test(d, window, cap, samples):
    """dudect classes (dhpfa.measure.leak) on one call of 6 mixed-length sequences (offsets fixed: public) with a window
    and / or soft-cap, through the API (the Hopper builds at D=256 and, since session 31's rule, D=128; D=64 runs the
    portable kernel, its soft-cap by MUFU.TANH since session 34)."""
    from dhpfa.measure import leak
    lens = mixed(seed=1)[:6]
    h = 16
    cu = offsets(lens)
    causal = window[1] == 0

    def fn(q, k, v):  # (1, H, total, D) buffers, viewed as (total, H, D)
        return dhpfa.flash_attn_varlen_func(q.transpose(1, 2)[0], k.transpose(1, 2)[0], v.transpose(1, 2)[0], cu, cu,
                                            max(lens), max(lens), causal=causal, window_size=window, softcap=cap)
    api._PLANS.clear()
    res = leak.run_leak(fn, (1, h, sum(lens), d, sum(lens), h), samples=samples)
    res["lens"], res["d"], res["window"], res["softcap"] = lens, d, list(window), cap
    res["api_kernels"] = sorted({p.variant.kernel for p in api._PLANS.values() if isinstance(p, api._VarlenPlan)
                                 and p.variant is not None})
    return res


def mixed(seed=0):
    rng = random.Random(seed)
    lens = []
    while sum(lens) < 16384:
        lens.append(rng.randint(64, 4096))
    return lens


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out/window")
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--cases", default="all")
    ap.add_argument("--leak-samples", type=int, default=0, help="dudect samples a class (0: no leak test)")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    if a.leak_samples:
        from dhpfa.measure import leak
        out = []
        for d, window, cap in ((256, (1023, 0), 50.0), (128, (1023, 0), 30.0), (64, (-1, 0), 30.0)):
            res = leak_test(d, window, cap, a.leak_samples)
            out.append(res)
            print(f"dudect D={d} window {window} softcap {cap} ({res['api_kernels']}):")
            print(leak.format_table({"dhpfa": res}), flush=True)
        with open(os.path.join(a.out, "leak.json"), "w") as fh:
            json.dump(out, fh, indent=1, default=str)
        if a.cases == "none":
            return
    cases = [  # (label, lens, d, causal, window, cap, dense (B, S))
        ("mistral 16K", [16384], 128, True, (4095, 0), 0.0, (1, 16384)),
        ("mistral 2x8K", [8192] * 2, 128, True, (4095, 0), 0.0, (2, 8192)),
        ("gemma2 16K", [16384], 256, True, (4095, 0), 50.0, (1, 16384)),
        ("gemma2 2x8K", [8192] * 2, 256, True, (4095, 0), 50.0, (2, 8192)),
        ("gemma2 cap only 4x4K", [4096] * 4, 256, True, (-1, -1), 50.0, (4, 4096)),
        ("short window 16K", [16384], 128, True, (255, 0), 0.0, (1, 16384)),
        ("two-sided 16K", [16384], 128, False, (511, 512), 0.0, (1, 16384)),
        ("cap only 16K d128", [16384], 128, False, (-1, -1), 30.0, (1, 16384)),
        ("varlen mixed w1023 cap30", mixed(), 128, True, (1023, 0), 30.0, None),
        ("varlen mixed w1023", mixed(), 128, True, (1023, 0), 0.0, None),
        ("varlen mixed w1023 d256", mixed(), 256, True, (1023, 0), 0.0, None),
        ("varlen mixed w1023 cap50 d256", mixed(), 256, True, (1023, 0), 50.0, None),
        ("mistral-cap 16K", [16384], 128, True, (4095, 0), 30.0, (1, 16384)),
        ("varlen mixed cap30", mixed(), 128, True, (-1, -1), 30.0, None),
    ]
    if a.cases != "all":
        keep = a.cases.split(",")
        cases = [c for c in cases if any(k in c[0] for k in keep)]
    rows = []
    lines = ["| case | D | window | cap | api kernel | dhpfa | hopper | portable | fa2 | no window (dense) | "
             "hopper / portable |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for label, lens, d, causal, window, cap, dense in cases:
        row = run(label, lens, d, causal, window, cap, a.rounds, dense)
        rows.append(row)
        t = {k: (row[k]["tflops"] if isinstance(row.get(k), dict) else None) for k in
             ("dhpfa", "hopper", "portable", "fa2", "dhpfa_no_window")}
        f = lambda x: f"{x:.0f}" if x else "-"  # noqa: E731
        ratio = t["hopper"] / t["portable"] if t["hopper"] and t["portable"] else None
        lines.append(f"| {label} | {d} | {window} | {cap} | {','.join(k[len('attn_fwd_'):] for k in row['api_kernels'])}"
                     f" | {f(t['dhpfa'])} | {f(t['hopper'])} | {f(t['portable'])} | {f(t['fa2'])} | "
                     f"{f(t['dhpfa_no_window'])} | {ratio and f'{ratio:.2f}'} |")
        print(lines[-1], row["rel_diff"], row["errors"] or "", flush=True)
    with open(os.path.join(a.out, "window.json"), "w") as fh:
        json.dump(rows, fh, indent=1)
    with open(os.path.join(a.out, "window.md"), "w") as fh:
        fh.write("TFLOPS of visible pairs (no window: of its own full work), CUDA-graph replay\n\n" + "\n".join(lines)
                 + "\n")


if __name__ == "__main__":
    main()
