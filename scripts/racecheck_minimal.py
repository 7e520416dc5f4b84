"""Is racecheck's "potential RAW hazard" on attn_fwd_sm90_ws ours or Triton's? Launches the smallest
warp-specialised Gluon kernel (tests/audit_corpus_gluon.ws_pipeline: a 1-warp TMA producer, one WGMMA
consumer, a 2-slot mbarrier ring, no shared data outside the ring) and checks its result, so it can run
under `compute-sanitizer --tool racecheck`:

    compute-sanitizer --tool racecheck --racecheck-report hazard python3 scripts/racecheck_minimal.py
"""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from tests.audit_corpus_gluon import TensorDescriptor, gl, ws_pipeline  # noqa: E402


def main():
    g = torch.Generator(device="cuda").manual_seed(0)
    k = 512
    a = torch.randn(256, k, device="cuda", dtype=torch.float16, generator=g)
    b = torch.randn(k, 128, device="cuda", dtype=torch.float16, generator=g)
    c = torch.full((256, 128), float("nan"), device="cuda", dtype=torch.float32)
    descs = (TensorDescriptor(a, list(a.shape), list(a.stride()), [64, 64],
                              gl.NVMMASharedLayout.get_default_for([64, 64], gl.float16)),
             TensorDescriptor(b, list(b.shape), list(b.stride()), [64, 128],
                              gl.NVMMASharedLayout.get_default_for([64, 128], gl.float16)),
             TensorDescriptor(c, list(c.shape), list(c.stride()), [64, 128],
                              gl.NVMMASharedLayout.get_default_for([64, 128], gl.float32)))
    ws_pipeline[(256 // 64,)](*descs, k, STAGES=2, num_warps=4)
    torch.cuda.synchronize()
    acc = a.double() @ b.double()
    ref = torch.exp2(acc - acc.max(1, keepdim=True).values)
    err = float((c.double() - ref).norm() / ref.norm())
    print(f"ws_pipeline relative error {err:.2e} ({'OK' if err < 1e-2 else 'FAIL'})")
    return 0 if err < 1e-2 else 1


if __name__ == "__main__":
    raise SystemExit(main())
