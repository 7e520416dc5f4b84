"""One packed grouped-query call for `ncu` (session 17): the API's call (8-row slots) or, with --slots16, the same call
with 16-row slots (scripts/packed_queries.py's slots16), inside an NVTX range "attn" after a warm-up call. Usage on the
device:

    ncu --clock-control none --nvtx --nvtx-include "attn/" --csv --metrics gpu__time_duration.sum,... \\
        python3 scripts/ncu_packed.py --shape 4,32,8,4,8192,128,c [--slots16 | --unpacked]
"""
import argparse

import torch

import dhpfa
from packed_queries import api_call, slots16, unpacked  # scripts/


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shape", default="4,32,8,4,8192,128,c")
    ap.add_argument("--slots16", action="store_true")
    ap.add_argument("--unpacked", action="store_true", help="the call with api.PACK_GQA_DECODE off (session 19)")
    a = ap.parse_args()
    f = a.shape.split(",")
    causal = f[-1] == "c"
    b, h, hk, sq, sk, d = (int(x) for x in (f[:-1] if causal else f))
    g = torch.Generator(device="cuda").manual_seed(sq * sk)
    q = torch.randn(b, sq, h, d, device="cuda", dtype=torch.bfloat16, generator=g)
    k, v = (torch.randn(b, sk, hk, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(2))
    fn = slots16() if a.slots16 else unpacked if a.unpacked else api_call
    in_attn_range(fn, q, k, v, causal)
    assert dhpfa is not None


def in_attn_range(fn, *args):
    """fn(*args) once to warm up (compile, plan), then once inside the NVTX range "attn" that ncu's --nvtx-include
    selects (also scripts/ncu_build.py)."""
    fn(*args)
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_push("attn")
    fn(*args)
    torch.cuda.nvtx.range_pop()
    torch.cuda.synchronize()


if __name__ == "__main__":
    main()
