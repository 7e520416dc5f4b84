"""Session 28: where the Triton TMA kernel computes wrong outputs on the GPU when a causal tile runs all of its key
blocks in the masked loop (docs/experiments/session28_tma_causal_one_loop.diff: x0.75-0.90 and relative errors
0.4-0.5 at D=64 in run 2, right at D=128 (1,8,512)). Builds (scripts/small_tiles module_variant of triton_fwd, its
attn_fwd_tma launched directly as the 64x64 three-stage variant): `zero`, the masked loop from the constant 0 (the
diff); `rt0`, from a runtime 0 (a select the compiler cannot fold). Causal (B, H, S, D) at several head dims and
lengths (the last tile's masked loop runs S / 64 blocks), bf16, against float64 (tma_one_loop_ab.rel_err); also the
tree's kernel.

    PYTHONPATH=src:scripts python3 scripts/tma_one_loop_probe.py --out DIR
"""
import argparse
import json
import os

import torch

from dhpfa.kernels import dispatch, triton_fwd, variants
from small_tiles import module_variant  # scripts/
from tma_one_loop_ab import rel_err  # scripts/

OLD = ("    n_full, kv_end = kv_bounds(m0, SEQ_K, CAUSAL_OFFSET, BLOCK_M, BLOCK_N, CAUSAL)\n"
       "    acc, m_i, l_i = _kv_blocks_tma(")
FORMS = {"zero": "n_full = 0", "rt0": "n_full = tl.where(kv_end < 0, n_full, 0)"}


def module(form):
    new = OLD.replace("CAUSAL)\n", f"CAUSAL)\n    if CAUSAL:\n        {FORMS[form]}\n")
    return module_variant(triton_fwd, OLD, new, f"triton_fwd_one_loop_{form}")


def run(kernel, variant, q, k, v):
    """out of `variant` launched directly (dispatch.launch) with triton_fwd.KERNELS["attn_fwd_tma"] = kernel; inputs and
    output (B, H, S, D), viewed as (B, S, H, D); the output poisoned with NaN."""
    saved = triton_fwd.KERNELS["attn_fwd_tma"]
    triton_fwd.KERNELS["attn_fwd_tma"] = kernel
    dispatch.clear_launchers()
    try:
        out = torch.full_like(q, float("nan"))
        lse = torch.empty(q.shape[:3], device=q.device, dtype=torch.float32)
        dispatch.launch(variant, q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), out.transpose(1, 2), lse,
                        q.shape[-1] ** -0.5, True, 0)
        torch.cuda.synchronize()
        return out
    finally:
        triton_fwd.KERNELS["attn_fwd_tma"] = saved
        dispatch.clear_launchers()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out")
    ap.add_argument("--dims", default="64,32,128,96")
    ap.add_argument("--lengths", default="64,128,192,256,320,512,1024")
    ap.add_argument("--batch", default="8,8", help="B,H")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    kernels = {"tree": triton_fwd.attn_fwd_tma}
    kernels.update({f: module(f).attn_fwd_tma for f in FORMS})
    b, h = (int(x) for x in args.batch.split(","))
    rows = []
    for d in (int(x) for x in args.dims.split(",")):
        variant = variants.Variant("attn_fwd_tma", variants.TileConfig(64, 64, 4, 3), torch.bfloat16, d, True)
        for s in (int(x) for x in args.lengths.split(",")):
            g = torch.Generator(device="cuda").manual_seed(s + d)
            q, k, v = (torch.randn(b, h, s, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(3))
            errs = {n: rel_err(run(fn, variant, q, k, v), q, k, v, True) for n, fn in kernels.items()}
            rows.append(dict(shape=[b, h, s, d], errors=errs))
            print(f"({b},{h},{s},{d}) causal 64x64 s3: " + "  ".join(f"{n} {e:.1e}" for n, e in errs.items()),
                  flush=True)
    json.dump(rows, open(os.path.join(args.out, "tma_one_loop_probe.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
