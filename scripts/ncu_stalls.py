"""One launch of a Gluon configuration for `ncu` (warp-state and scheduler sections: where the consumer
warps stall). Usage on the device:

    ncu --clock-control none --section WarpStateStats --section SchedulerStats --section SpeedOfLight \\
        --section ComputeWorkloadAnalysis -k regex:attn_fwd -c 1 python3 scripts/ncu_stalls.py --d 128 \\
        --seq 16384 [--causal]

The variant is the one the API dispatches for that head dim, length and causal flag on Hopper.
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
    a = ap.parse_args()
    v = variants.select(torch.bfloat16, a.d, a.causal, False, seq_k=a.seq, sm90=True)  # what the API runs
    b, h = max(1, 16384 // a.seq), 2048 // a.d
    g = torch.Generator(device="cuda").manual_seed(0)
    q, k, vv = (torch.randn(b, a.seq, h, a.d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(3))
    out, lse = torch.empty_like(q), torch.empty(b, h, a.seq, device="cuda")
    for _ in range(2):
        dispatch.launch(v, q, k, vv, out, lse, a.d ** -0.5, a.causal, 0)
    torch.cuda.synchronize()
    print(v.name, "ok")


if __name__ == "__main__":
    main()
