"""One launch of a Gluon configuration for `ncu` (warp-state and scheduler sections: where the consumer
warps stall). Usage on the device:

    ncu --clock-control none --section WarpStateStats --section SchedulerStats --section SpeedOfLight \\
        --section ComputeWorkloadAnalysis -k regex:attn_fwd -c 1 python3 scripts/ncu_stalls.py --d 128 \\
        --seq 16384 [--causal]

The variant is the one the API dispatches for that head dim, length and causal flag on Hopper (the grid
cell's shape: B = 16384 / S, H = 2048 / D), or --variant NAME (say _GLUON_N128S2_QD). --peer cudnn|flash
runs that SDPA backend instead; each call is
inside an NVTX range "attn", so `ncu --nvtx --nvtx-include "attn/"` profiles the attention kernel only,
whatever its name.
"""
import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src"))
from dhpfa.kernels import dispatch, variants  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--d", type=int, default=128)
    ap.add_argument("--seq", type=int, default=16384)
    ap.add_argument("--causal", action="store_true")
    ap.add_argument("--peer", choices=("cudnn", "flash"), help="profile this SDPA backend instead")
    ap.add_argument("--variant", help="a (kernel, TileConfig) name in variants to run instead of the API's choice")
    ap.add_argument("--shape", help="B,H,Sq,Sk instead of the grid cell's (say 1,8,4,4096: a packed decode call's "
                    "grid, with --variant)")
    a = ap.parse_args()
    v = variants.select(torch.bfloat16, a.d, a.causal, False, seq_k=a.seq, sm90=True)  # what the API runs
    if a.variant:
        kernel, config = getattr(variants, a.variant)
        v = variants.Variant(kernel, config, torch.bfloat16, a.d, a.causal)
    b, h = max(1, 16384 // a.seq), 2048 // a.d
    sq = sk = a.seq
    if a.shape:
        b, h, sq, sk = (int(x) for x in a.shape.split(","))
    g = torch.Generator(device="cuda").manual_seed(0)
    q = torch.randn(b, sq, h, a.d, device="cuda", dtype=torch.bfloat16, generator=g)
    k, vv = (torch.randn(b, sk, h, a.d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(2))
    out, lse = torch.empty_like(q), torch.empty(b, h, sq, device="cuda")
    if a.peer:
        from torch.nn.attention import SDPBackend, sdpa_kernel
        backend = {"cudnn": SDPBackend.CUDNN_ATTENTION, "flash": SDPBackend.FLASH_ATTENTION}[a.peer]
        qt, kt, vt = (t.transpose(1, 2) for t in (q, k, vv))

        def call():
            with sdpa_kernel([backend]):
                torch.nn.functional.scaled_dot_product_attention(qt, kt, vt, is_causal=a.causal)
        name = f"sdpa_{a.peer}"
    else:
        def call():
            dispatch.launch(v, q, k, vv, out, lse, a.d ** -0.5, a.causal, sk - sq)
        name = v.name
    for _ in range(2):
        torch.cuda.nvtx.range_push("attn")
        call()
        torch.cuda.nvtx.range_pop()
    torch.cuda.synchronize()
    print(name, "ok")


if __name__ == "__main__":
    main()
