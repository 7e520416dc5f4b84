"""Decode steps through flash_attn_with_kvcache (one query per sequence; the portable kernel's grouped, split builds),
K/V bytes read per second against a read-only torch reduction over the same bytes (the bound a decode step works
against), CUDA-graph replay. Contiguous caches and pages of 256; GQA 32 / 8 heads (D=256: 16 / 8).

    PYTHONPATH=src:scripts python3 scripts/decode_bw.py [--out DIR]
"""
import argparse
import json
import os

import torch

import dhpfa
from dhpfa import api
from dhpfa.measure.bench import graph_ms
from paged_hopper_ab import paged_copy


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    gen = torch.Generator().manual_seed(34)
    g = torch.Generator(device="cuda").manual_seed(34)
    rows = []
    print(f"{'case':<34} {'us':>8} {'TB/s':>6} {'sum() TB/s':>10}  plan")
    for d, h, hk in ((64, 32, 8), (128, 32, 8), (256, 16, 8)):
        for b, n in ((8, 4096), (8, 16384), (32, 4096), (64, 2048)):
            kc, vc = (torch.randn(b, n, hk, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(2))
            q = torch.randn(b, 1, h, d, device="cuda", dtype=torch.bfloat16, generator=g)
            lens = torch.full((b,), n, dtype=torch.int32, device="cuda")
            kp, vp, bt = paged_copy(kc, vc, 256, gen)
            nbytes = 2 * kc.numel() * kc.element_size()
            both = torch.cat((kc.view(-1), vc.view(-1)))
            ref_ms = graph_ms(lambda: both.sum(dtype=torch.float32), [()], replays=20)
            for layout in ("contiguous", "paged"):
                api._PLANS.clear()
                if layout == "paged":
                    fn = lambda: dhpfa.flash_attn_with_kvcache(q, kp, vp, cache_seqlens=lens, block_table=bt)  # noqa
                else:
                    fn = lambda: dhpfa.flash_attn_with_kvcache(q, kc, vc, cache_seqlens=lens)  # noqa
                fn()
                plan = sorted({(p.variant.kernel, getattr(p, "splits", 1)) for p in api._PLANS.values()
                               if getattr(p, "variant", None) is not None})
                ms = min(graph_ms(fn, [()], replays=20) for _ in range(3))
                tbs, ref = nbytes / ms / 1e9, nbytes / ref_ms / 1e9
                label = f"D={d} B={b} keys={n} {layout}"
                print(f"{label:<34} {ms * 1000:8.1f} {tbs:6.2f} {ref:10.2f}  {plan}", flush=True)
                rows.append(dict(case=label, us=ms * 1000, tb_s=tbs, sum_tb_s=ref, plan=[list(p) for p in plan]))
            del kc, vc, kp, vp, both
    with open(os.path.join(a.out, "decode_bw.json"), "w") as f:
        json.dump({"device": torch.cuda.get_device_name(), "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
