"""Is D=64 decode (session 34: 79-81% of a read-only reduction's bandwidth, D=128 88%) limited by where its rows lie?

The same decode step (one query per sequence, 32 query heads over 8 key/value heads, the portable kernel's grouped
split build through flash_attn_varlen_func) over the same bytes in three layouts, CUDA-graph replay:
- rows:  k, v (B * N, 8, D) contiguous, as a cache is: a head's key rows D * 2 bytes long, 8 * D * 2 bytes apart;
- heads: the same view over (8, B * N, D) memory: each head's keys one contiguous run;
- hk1:   8 * B sequences over one key/value head (4 query heads each): the same programs, contiguous runs.
Same grid, kernel and split in all three (printed). TB/s = K and V bytes / time; `sum` a read-only torch reduction.

    PYTHONPATH=src:scripts python3 scripts/decode_layout_probe.py [--out DIR]
"""
import argparse
import json
import os

import torch

import dhpfa
from dhpfa import api
from dhpfa.measure.bench import graph_ms


def _case(b, n, h, hk, d, layout, g):
    total = b * n
    if layout == "heads":
        k, v = (torch.randn(hk, total, d, device="cuda", dtype=torch.bfloat16, generator=g).transpose(0, 1)
                for _ in range(2))
    else:
        k, v = (torch.randn(total, hk, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(2))
    q = torch.randn(b, h, d, device="cuda", dtype=torch.bfloat16, generator=g)
    cq = torch.arange(b + 1, dtype=torch.int32, device="cuda")
    ck = torch.arange(b + 1, dtype=torch.int32, device="cuda") * n
    return q, k, v, cq, ck


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out")
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    g = torch.Generator(device="cuda").manual_seed(36)
    rows = []
    print(f"{'case':<30} {'us':>8} {'TB/s':>6} {'sum TB/s':>8}  plan")
    for d in (64, 128):
        for b, n in ((64, 2048), (8, 16384)):
            for layout in ("rows", "heads", "hk1"):
                if layout == "hk1":
                    q, k, v, cq, ck = _case(8 * b, n, 4, 1, d, "rows", g)
                else:
                    q, k, v, cq, ck = _case(b, n, 32, 8, d, layout, g)
                nbytes = 2 * k.numel() * k.element_size()
                both = torch.cat((k.reshape(-1), v.reshape(-1)))
                ref_ms = graph_ms(lambda: both.sum(dtype=torch.float32), [()], replays=20)
                api._PLANS.clear()
                fn = lambda: dhpfa.flash_attn_varlen_func(q, k, v, cq, ck, 1, n)  # noqa: E731
                out = fn()
                assert torch.isfinite(out).all()
                plan = sorted({(p.variant.kernel, getattr(p, "splits", 1)) for p in api._PLANS.values()
                               if getattr(p, "variant", None) is not None})
                ms = min(graph_ms(fn, [()], replays=20) for _ in range(a.rounds))
                label = f"D={d} B={b} N={n} {layout}"
                tbs, ref = nbytes / ms / 1e9, nbytes / ref_ms / 1e9
                print(f"{label:<30} {ms * 1000:8.1f} {tbs:6.2f} {ref:8.2f}  {plan}", flush=True)
                rows.append(dict(case=label, us=ms * 1000, tb_s=tbs, sum_tb_s=ref, plan=[list(p) for p in plan]))
                del q, k, v, both
    with open(os.path.join(a.out, "decode_layout_probe.json"), "w") as f:
        json.dump({"device": torch.cuda.get_device_name(), "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
