"""One launch of a Gluon build from ab_sm90.CONFIGS (or the API's call, --config api) for `ncu`, inside an NVTX range
"attn" after a warm-up launch (session 29: n64s3 against n64s3_qd at the D=128 causal 512 cell). Usage on the device:

    ncu --clock-control none --nvtx --nvtx-include "attn/" --section WarpStateStats --section SourceCounters -c 1 \\
        -o REP python3 scripts/ncu_build.py --config n64s3 --shape 32,16,512,128,c
"""
import argparse

import torch

import dhpfa
from ab_sm90 import CONFIGS, launcher  # scripts/
from ncu_packed import in_attn_range
from sm90_check import gluon_fn


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="n64s3")
    ap.add_argument("--shape", default="32,16,512,128,c", help="B,H,S,D[,c]: (B, H, S, D) bf16, c: causal")
    ap.add_argument("--module", default="sm90_fwd", help="kernel module in dhpfa.kernels (a copy beside sm90_fwd)")
    a = ap.parse_args()
    f = a.shape.split(",")
    causal = f[-1] == "c"
    b, h, s, d = (int(x) for x in (f[:-1] if causal else f))
    g = torch.Generator(device="cuda").manual_seed(s)
    q, k, v = (torch.randn(b, h, s, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(3))
    if a.config == "api":
        def fn(q, k, v, causal):
            return dhpfa.scaled_dot_product_attention(q, k, v, is_causal=causal)
    else:
        import importlib
        sm90_fwd = importlib.import_module(f"dhpfa.kernels.{a.module}")
        tiles = CONFIGS[a.config][1]
        fn = gluon_fn(tiles, launch=launcher(sm90_fwd, tiles))
    in_attn_range(fn, q, k, v, causal)


if __name__ == "__main__":
    main()
