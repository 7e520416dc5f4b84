"""A/B of two versions of the varlen kernel module (triton_fwd) through dhpfa.flash_attn_varlen_func, on the device:
the working tree's (new) against a copy of an older one loaded beside it as a package module (old), and of the dense
builds split across programs with dispatch.SPLIT_KV_FULL_AS_CAUSAL on and off. Session 27 folded binaries that differ
only in public flags, to cut what CI's full audit compiles; this measures what each fold costs each kind of call (runs
1-4 measured three forms of the varlen fold; docs/perf-log.md).

    PYTHONPATH=src python3 scripts/varlen_fold_ab.py --old _ab_triton_fwd_old --out $OUT/fold [--rounds 9]

The old module is src/dhpfa/kernels/<old>.py (gitignored `_ab_*` copies; carry them to the device). Each call runs
with one module installed as dhpfa.kernels.triton_fwd (the API's plans and launchers cleared), captured in a CUDA
graph, and the graphs replay interleaved in random order per round (bench.interleaved_ms). Outputs of both are
compared (bitwise equality is not expected: the masked blocks' order may differ) and each against float32 math.
"""
import argparse
import importlib
import json
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src"))
import dhpfa  # noqa: E402
from dhpfa import api  # noqa: E402
from dhpfa.kernels import dispatch  # noqa: E402
from dhpfa.measure import stats  # noqa: E402
from dhpfa.measure.bench import interleaved_ms  # noqa: E402
from varlen_bench import offsets, workload  # noqa: E402  (scripts/)

PKG = "dhpfa.kernels"


def forget_plans():
    """Drop the API's plans and launchers, so that the next call chooses and launches afresh."""
    api._PLANS.clear()
    dispatch.clear_launchers()


def install(mod):
    """Make `mod` the module the API launches varlen kernels from."""
    import dhpfa.kernels as kpkg
    sys.modules[PKG + ".triton_fwd"] = mod
    kpkg.triton_fwd = mod
    forget_plans()


CASES = [
    # name, q lengths, k lengths, H, H_KV, D, causal, window, softcap, page size
    ("prefill d128 causal", "mixed", None, 16, 16, 128, True, (-1, -1), 0.0, None),
    ("prefill d128", "mixed", None, 16, 16, 128, False, (-1, -1), 0.0, None),
    ("prefill d64 causal", "mixed", None, 32, 32, 64, True, (-1, -1), 0.0, None),
    ("prefill d256 causal", "mixed", None, 8, 8, 256, True, (-1, -1), 0.0, None),
    ("prefill d128 softcap causal", "mixed", None, 16, 8, 128, True, (-1, -1), 30.0, None),
    ("prefill d96 causal", "mixed", None, 16, 16, 96, True, (-1, -1), 0.0, None),
    ("prefill d64 short", "short", None, 32, 32, 64, False, (-1, -1), 0.0, None),
    ("prefill d128 gqa causal short", "short", None, 32, 8, 128, True, (-1, -1), 0.0, None),
    ("prefill d128 window 512", "mixed", None, 16, 16, 128, True, (512, 0), 0.0, None),
    ("prefill d256 softcap causal", "mixed", None, 8, 4, 256, True, (-1, -1), 50.0, None),
    ("decode d128 gqa 32x4K", [1] * 32, [4096] * 32, 32, 8, 128, True, (-1, -1), 0.0, None),
    ("decode d128 gqa 8x16K", [1] * 8, [16384] * 8, 32, 8, 128, True, (-1, -1), 0.0, None),
    ("decode d256 gqa softcap 16x4K", [1] * 16, [4096] * 16, 16, 8, 256, True, (-1, -1), 50.0, None),
    ("decode d256 gqa 16x4K", [1] * 16, [4096] * 16, 16, 8, 256, True, (-1, -1), 0.0, None),
    ("decode d128 rows 64x2K", [1] * 64, [2048] * 64, 16, 16, 128, True, (-1, -1), 0.0, None),
    ("decode d128 gqa paged256 32x4K", [1] * 32, [4096] * 32, 32, 8, 128, True, (-1, -1), 0.0, 256),
    ("decode d128 gqa paged16 32x4K", [1] * 32, [4096] * 32, 32, 8, 128, True, (-1, -1), 0.0, 16),
    ("chunk d128 gqa 16q 16x4K", [16] * 16, [4096] * 16, 32, 8, 128, True, (-1, -1), 0.0, None),
    ("chunk d128 gqa paged256 64q 32x4K", [64] * 32, [4096] * 32, 32, 8, 128, True, (-1, -1), 0.0, 256),
    ("chunk d128 gqa paged256 16q 64x2K", [16] * 64, [2048] * 64, 32, 8, 128, True, (-1, -1), 0.0, 256),
    ("decode d64 gqa 64x2K", [1] * 64, [2048] * 64, 32, 4, 64, True, (-1, -1), 0.0, None),
    ("prefill d256 non-causal", "mixed", None, 8, 8, 256, False, (-1, -1), 0.0, None),
    ("prefill d64 non-causal", "mixed", None, 32, 32, 64, False, (-1, -1), 0.0, None),
    ("decode d128 gqa 32x4K non-causal", [1] * 32, [4096] * 32, 32, 8, 128, False, (-1, -1), 0.0, None),
    ("decode d64 gqa 64x2K non-causal", [1] * 64, [2048] * 64, 32, 4, 64, False, (-1, -1), 0.0, None),
    ("decode d256 gqa 16x4K non-causal", [1] * 16, [4096] * 16, 16, 8, 256, False, (-1, -1), 0.0, None),
    ("chunk d128 gqa paged256 64q non-causal", [64] * 32, [4096] * 32, 32, 8, 128, False, (-1, -1), 0.0, 256),
    ("chunk d128 64q 16x4K non-causal", [64] * 16, [4096] * 16, 16, 16, 128, False, (-1, -1), 0.0, None),
]


def build(case, n_sets=3):
    name, lq, lk, h, hk, d, causal, window, cap, page = case
    if lq in ("mixed", "short"):
        lq = workload(lq, seed=d)  # (varlen_bench's packed batches of about 16K tokens)
    lk = lk or lq
    cu_q, cu_k = offsets(lq), offsets(lk)
    g = torch.Generator(device="cuda").manual_seed(len(name))
    sets = []
    for _ in range(n_sets):
        q = torch.randn(sum(lq), h, d, device="cuda", dtype=torch.bfloat16, generator=g)
        if page:
            pages_per = -(-max(lk) // page)
            n_pages = pages_per * len(lk)
            k = torch.randn(n_pages * page, hk, d, device="cuda", dtype=torch.bfloat16, generator=g)
            v = torch.randn(n_pages * page, hk, d, device="cuda", dtype=torch.bfloat16, generator=g)
            perm = torch.randperm(n_pages, device="cuda", generator=g).to(torch.int32)
            bt = perm.view(len(lk), pages_per)
            sets.append((q, (k.view(n_pages, page, hk, d), bt), v.view(n_pages, page, hk, d)))
        else:
            k = torch.randn(sum(lk), hk, d, device="cuda", dtype=torch.bfloat16, generator=g)
            v = torch.randn(sum(lk), hk, d, device="cuda", dtype=torch.bfloat16, generator=g)
            sets.append((q, (k, None), v))  # (bench.interleaved_ms passes (q, k, v): the block table rides with k)
    return lq, lk, cu_q, cu_k, sets


# Dense calls that run the builds split across programs (variants' _SPLIT_KV_TABLES), non-causal: dispatch's
# SPLIT_KV_FULL_AS_CAUSAL on (new: the causal binary with its diagonal past every key) and off (old: the non-causal
# binary). (name, batch, queries, heads, key/value heads, keys, head dim)
SPLIT_KV_CASES = [
    ("split-kv d64 8h 512q 4K", 1, 512, 8, 8, 4096, 64),
    ("split-kv d128 4h 64q 16K", 1, 64, 4, 4, 16384, 128),
    ("split-kv d128 2h 512q 8K", 1, 512, 2, 2, 8192, 128),
    ("split-kv d256 2h 128q 8K", 1, 128, 2, 2, 8192, 256),
    ("split-kv d128 gqa decode 8x8K", 8, 1, 32, 8, 8192, 128),
    ("split-kv d64 gqa decode 4x16K", 4, 1, 32, 4, 16384, 64),
]


def split_kv_ab(rounds, rows):
    for name, b, sq, h, hk, sk, d in SPLIT_KV_CASES:
        g = torch.Generator(device="cuda").manual_seed(sk + d)
        sets = [tuple(torch.randn(b, n, hh, d, device="cuda", dtype=torch.bfloat16, generator=g)
                      for n, hh in ((sq, h), (sk, hk), (sk, hk))) for _ in range(3)]

        def call(flag):
            def f(q, k, v, causal):
                dispatch.SPLIT_KV_FULL_AS_CAUSAL = flag
                forget_plans()
                return dhpfa.flash_attn_func(q, k, v, causal=False)
            return f
        kernels = {"old": call(False), "new": call(True)}
        try:
            outs = {n: kernels[n](*sets[0], False).float() for n in kernels}
            chosen = [getattr(getattr(p, "variant", None), "name", "?") for p in api._PLANS.values()]
            diff = float((outs["new"] - outs["old"]).norm() / outs["old"].norm())
            times = interleaved_ms(kernels, sets, False, rounds=rounds, graph=True)
        except Exception as e:  # noqa: BLE001
            print(f"{name:34} failed: {type(e).__name__}: {str(e)[:300]}", flush=True)
            rows.append(dict(case=name, error=f"{type(e).__name__}: {str(e)[:300]}"))
            continue
        finally:
            dispatch.SPLIT_KV_FULL_AS_CAUSAL = True
        med = {n: stats.median(ts) for n, ts in times.items()}
        rows.append(dict(case=name, shape=[b, sq, h, hk, sk, d], variant=chosen, rel_diff_new_old=diff, ms=med,
                         rounds=times,
                         new_over_old=med["old"] / med["new"]))
        print(f"{name:34} old {med['old'] * 1e3:9.2f} us  new {med['new'] * 1e3:9.2f} us  x{med['old'] / med['new']:.3f}"
              f"  diff {diff:.1e}  {chosen}", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--old", default="_ab_triton_fwd_old")
    ap.add_argument("--out", required=True)
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    new = importlib.import_module(PKG + ".triton_fwd")
    old = importlib.import_module(PKG + "." + a.old)
    mods = {"old": old, "new": new}
    rows = []
    for case in CASES:
        if a.only and (a.only == "split-kv" or a.only not in case[0]):
            continue
        name, _, _, h, hk, d, causal, window, cap, page = case
        lq, lk, cu_q, cu_k, sets = build(case)
        mq, mk = max(lq), max(lk)
        cache_lens = torch.tensor(lk, dtype=torch.int32, device="cuda")  # (paged cases; made before any capture)

        def call(mod):
            def f(q, kb, v, causal):
                k, bt = kb
                install(mod)
                if page:
                    return dhpfa.flash_attn_with_kvcache(q.view(len(lq), -1, h, d), k, v, cache_seqlens=cache_lens,
                                                         block_table=bt, causal=causal, window_size=window,
                                                         softcap=cap)
                return dhpfa.flash_attn_varlen_func(q, k, v, cu_q, cu_k, mq, mk, causal=causal, window_size=window,
                                                    softcap=cap)
            return f
        kernels = {n: call(m) for n, m in mods.items()}
        try:
            outs = {n: kernels[n](*sets[0], causal).float() for n in kernels}
            diff = float((outs["new"] - outs["old"]).norm() / outs["old"].norm())
            times = interleaved_ms(kernels, sets, causal, rounds=a.rounds, graph=True)
        except Exception as e:  # noqa: BLE001  (report and go on to the next case)
            print(f"{name:34} failed: {type(e).__name__}: {str(e)[:300]}", flush=True)
            rows.append(dict(case=name, error=f"{type(e).__name__}: {str(e)[:300]}"))
            install(new)
            continue
        med = {n: stats.median(ts) for n, ts in times.items()}
        row = dict(case=name, d=d, h=h, hk=hk, causal=causal, window=window, softcap=cap, page=page,
                   rel_diff_new_old=diff, ms=med, rounds=times, new_over_old=med["old"] / med["new"])
        rows.append(row)
        print(f"{name:34} old {med['old'] * 1e3:9.2f} us  new {med['new'] * 1e3:9.2f} us  x{row['new_over_old']:.3f}"
              f"  diff {diff:.1e}", flush=True)
        install(new)
    if not a.only or a.only == "split-kv":
        split_kv_ab(a.rounds, rows)
    with open(os.path.join(a.out, "varlen_fold_ab.json"), "w") as f:
        json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
