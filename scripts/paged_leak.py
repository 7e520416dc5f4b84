"""dudect classes (dhpfa.measure.leak) on paged varlen calls: the keys and values in pages behind a block table
(public, fixed), mixed lengths (offsets fixed: public), through flash_attn_varlen_func (on Hopper the paged Gluon build
`attn_fwd_sm90_varlen_paged` at these shapes). Writes paged_leak.json and prints each case's table.

    PYTHONPATH=src python3 scripts/paged_leak.py --samples 1000 --out $OUT
"""
import argparse
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "src"))
sys.path.insert(0, os.path.join(ROOT, "scripts"))

CASES = [(128, True, 256), (128, False, 128), (256, True, 64)]  # (head dim, causal, page rows)


def leak_case(d, causal, page, samples):
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
                                            block_table=table)
    api._PLANS.clear()
    res = leak.run_leak(fn, (1, h, sum(LENS), d, pages * page, h), samples=samples)
    res.update(lens=LENS, d=d, causal=causal, page=page,
               api_kernels=sorted({p.variant.kernel for p in api._PLANS.values()
                                   if isinstance(p, api._VarlenPlan) and p.variant is not None}))
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--samples", type=int, default=1000)
    ap.add_argument("--out", default="out/paged_leak")
    a = ap.parse_args()
    from dhpfa.measure import leak
    from varlen_counters import LENS
    os.makedirs(a.out, exist_ok=True)
    out = []
    for d, causal, page in CASES:
        res = leak_case(d, causal, page, a.samples)
        out.append(res)
        print(f"dudect paged D={d} causal={causal} page={page} lens {LENS} ({res['api_kernels']}):")
        print(leak.format_table({"dhpfa": res}), flush=True)
    with open(os.path.join(a.out, "paged_leak.json"), "w") as fh:
        json.dump(out, fh, indent=1, default=str)


if __name__ == "__main__":
    main()
