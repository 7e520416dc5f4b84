"""dudect classes (dhpfa.measure.leak) on paged varlen calls: the keys and values in pages behind a block table
(public, fixed), mixed lengths (offsets fixed: public), through flash_attn_varlen_func (on Hopper the paged Gluon build
`attn_fwd_sm90_varlen_paged` at these shapes). --decode: decode steps instead (one query per sequence, 32 query heads
over 8, varlen_counters.DECODE_LENS_K keys, pages of 256) with a window and / or soft-cap, on the portable kernel's
grouped paged builds (session 34). --window-softcap: the mixed lengths with a window and / or soft-cap (WINDOW_CASES:
the Hopper paged builds with them). Writes paged_leak*.json and prints each case's table.

    PYTHONPATH=src python3 scripts/paged_leak.py --samples 1000 [--decode [--pipelined] | --window-softcap] --out $OUT
"""
import argparse
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "src"))
sys.path.insert(0, os.path.join(ROOT, "scripts"))

CASES = [(128, True, 256), (128, False, 128), (256, True, 64)]  # (head dim, causal, page rows)
# --window-softcap: the Hopper paged builds with a window and / or soft-cap (session 33's, measured in session 34)
WINDOW_CASES = [(128, True, 256, (1023, 0), 0.0), (256, True, 64, (1023, 0), 50.0), (128, False, 128, (-1, -1), 30.0)]
DECODE_CASES = [(128, (1023, 0), 0.0), (256, (1023, 0), 50.0), (128, (-1, -1), 30.0)]  # (head dim, window, softcap)


def leak_case(d, causal, page, samples, window=(-1, -1), cap=0.0):
    import dhpfa
    from dhpfa import api
    from dhpfa.measure import leak
    from varlen_bench import offsets
    from varlen_counters import LENS, paged_layout
    pages, table = paged_layout(LENS, page)
    cu = offsets(LENS)
    h = 2048 // d

    def fn(q, k, v):  # (1, H, total, D) buffers; k, v viewed as (pages, page, H, D)
        k, v = (t.transpose(1, 2)[0].unflatten(0, (pages, page)) for t in (k, v))
        return dhpfa.flash_attn_varlen_func(q.transpose(1, 2)[0], k, v, cu, cu, max(LENS), max(LENS), causal=causal,
                                            window_size=window, softcap=cap, block_table=table)
    api._PLANS.clear()
    res = leak.run_leak(fn, (1, h, sum(LENS), d, pages * page, h), samples=samples)
    res.update(lens=LENS, d=d, causal=causal, page=page, window=window, softcap=cap,
               api_kernels=sorted({p.variant.kernel for p in api._PLANS.values()
                                   if isinstance(p, api._VarlenPlan) and p.variant is not None}))
    return res


def decode_case(d, window, cap, samples, page=256, pipelined=False):
    """A decode step of DECODE_LENS_K keys (causal, 32 query heads over 8) with a window / soft-cap, pages of 256."""
    import dhpfa
    from dhpfa import api
    from dhpfa.measure import leak
    from varlen_bench import offsets
    from varlen_counters import DECODE_LENS_K, paged_layout
    lens_q = [1] * len(DECODE_LENS_K)
    pages, table = paged_layout(DECODE_LENS_K, page)
    cu_q, cu_k = offsets(lens_q), offsets(DECODE_LENS_K)

    def fn(q, k, v):
        k, v = (t.transpose(1, 2)[0].unflatten(0, (pages, page)) for t in (k, v))
        return dhpfa.flash_attn_varlen_func(q.transpose(1, 2)[0], k, v, cu_q, cu_k, 1, max(DECODE_LENS_K),
                                            causal=True, window_size=window, softcap=cap, block_table=table)
    api._PLANS.clear()
    res = leak.run_leak(fn, (1, 32, len(lens_q), d, pages * page, 8), samples=samples, pipelined=pipelined)
    res.update(lens_k=DECODE_LENS_K, d=d, window=window, softcap=cap, page=page,
               api_kernels=sorted({p.variant.kernel for p in api._PLANS.values()
                                   if isinstance(p, api._VarlenPlan) and p.variant is not None}))
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--samples", type=int, default=1000)
    ap.add_argument("--out", default="out/paged_leak")
    ap.add_argument("--decode", action="store_true")
    ap.add_argument("--window-softcap", action="store_true", help="WINDOW_CASES instead of CASES")
    ap.add_argument("--pipelined", action="store_true", help="decode: samples queued back to back (run_leak)")
    a = ap.parse_args()
    from dhpfa.measure import leak
    from varlen_counters import LENS
    os.makedirs(a.out, exist_ok=True)
    out = []
    for d, window, cap in DECODE_CASES if a.decode else ():
        res = decode_case(d, window, cap, a.samples, pipelined=a.pipelined)
        out.append(res)
        print(f"dudect paged decode D={d} window={window} softcap={cap} pipelined={a.pipelined} "
              f"({res['api_kernels']}):")
        print(leak.format_table({"dhpfa": res}), flush=True)
    cases = [c + ((-1, -1), 0.0) for c in CASES] if not a.window_softcap else WINDOW_CASES
    for d, causal, page, window, cap in () if a.decode else cases:
        res = leak_case(d, causal, page, a.samples, window, cap)
        out.append(res)
        print(f"dudect paged D={d} causal={causal} page={page} window={window} softcap={cap} lens {LENS} "
              f"({res['api_kernels']}):")
        print(leak.format_table({"dhpfa": res}), flush=True)
    name = ("paged_leak_decode" + ("_pipelined" if a.pipelined else "")) if a.decode else \
        "paged_leak" + ("_window_softcap" if a.window_softcap else "")
    with open(os.path.join(a.out, name + ".json"), "w") as fh:
        json.dump(out, fh, indent=1, default=str)


if __name__ == "__main__":
    main()
