"""The API's one-query decode calls for compute-sanitizer (sessions 55-56's device calls): for each case three calls
of flash_attn_func on fresh random tensors (the plan's first, JIT-launched call, then two on its kept launchers), then
the plan's variant, part count and launcher type.

    compute-sanitizer --tool memcheck python3 scripts/decode_sanitize.py --cases "B,H,H_kv,S_k,D;..." [--seed N]
        [--dtype bf16|fp16] [--merge on|off] [--merge-dims 64,128]
(scripts/device_prelude.sh's sanitize_decode runs it under memcheck and synccheck.)
"""
import argparse

import torch

import dhpfa
from dhpfa import api
from dhpfa.kernels import variants


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", required=True)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--dtype", choices=("bf16", "fp16"), default="bf16")
    ap.add_argument("--merge", choices=("on", "off"), help="variants.SWAP_DECODE_MERGE (default: the shipped value)")
    ap.add_argument("--merge-dims", help="variants.SWAP_DECODE_MERGE_DIMS, e.g. 64,128 (default: the shipped value)")
    a = ap.parse_args()
    if a.merge:
        variants.SWAP_DECODE_MERGE = a.merge == "on"
    if a.merge_dims:
        variants.SWAP_DECODE_MERGE_DIMS = tuple(int(x) for x in a.merge_dims.split(","))
    dtype = {"bf16": torch.bfloat16, "fp16": torch.float16}[a.dtype]
    g = torch.Generator(device="cuda").manual_seed(a.seed)
    for b, h, hk, sk, d in (tuple(int(x) for x in c.split(",")) for c in a.cases.split(";")):
        api._PLANS.clear()
        for _ in range(3):
            q = torch.randn(b, 1, h, d, device="cuda", dtype=dtype, generator=g)
            k, v = (torch.randn(b, sk, hk, d, device="cuda", dtype=dtype, generator=g) for _ in range(2))
            dhpfa.flash_attn_func(q, k, v)
        (p,) = api._PLANS.values()
        print((b, h, hk, sk, d), p.variant.name, p.decode_parts, type(p.launcher).__name__)
    torch.cuda.synchronize()
    print("done")


if __name__ == "__main__":
    main()
