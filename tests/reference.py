"""Reference helpers for the tests: the float64 reference lives in the package (dhpfa.reference)."""
import torch

from dhpfa.reference import attention_ref, attention_ref_rows  # noqa: F401  (re-exported for the tests)


def poison_api_outputs(monkeypatch):
    """Every output buffer the API allocates (api._empty) starts as NaN, so an element a kernel fails to write shows
    up. Returns the api module."""
    from dhpfa import api

    def nan_empty(shape, dtype, device):
        return torch.full(shape, float("nan"), dtype=dtype, device=device)
    monkeypatch.setattr(api, "_empty", nan_empty)
    return api


def rel_err(x, ref):
    x = x.detach().to("cpu", torch.float64)
    return float((x - ref).norm() / ref.norm().clamp_min(1e-300))


def check_variant_on_grid(variant, b, h, s, calls, tol, row_step=1):
    """Launch `variant` `calls` times, queued back to back, on (B, H, S, D) tensors viewed as (B, S, H, D), as
    the tuner passes them, into NaN-poisoned outputs; then check out and lse of two heads against float64
    (every row_step-th row). Big grids keep every SM busy for many programs: races between warp-specialised
    partitions show there first (session 8: the split-key ring)."""
    from dhpfa.kernels import dispatch
    d, dt = variant.head_dim, variant.dtype
    g = torch.Generator(device="cuda").manual_seed(d + 7 * variant.causal)
    q, k, v = (torch.randn(b, h, s, d, device="cuda", dtype=dt, generator=g).transpose(1, 2) for _ in range(3))
    out = torch.full((b, s, h, d), float("nan"), device="cuda", dtype=dt)
    lse = torch.full((b, h, s), float("nan"), device="cuda")
    for _ in range(calls):
        dispatch.launch(variant, q, k, v, out, lse, d ** -0.5, variant.causal, 0)
    torch.cuda.synchronize()
    assert not out.isnan().any() and not lse.isnan().any()
    rows = torch.arange(0, s, row_step, device="cuda")
    for bb, hh in {(0, 0), (b - 1, h - 1)}:
        ro, rl = attention_ref_rows(q, k, v, d ** -0.5, 0 if variant.causal else None, bb, hh, rows)
        err = float((out[bb, rows, hh].double() - ro).norm() / ro.norm())
        assert err < tol, f"rel err {err:.2e} at b={bb} h={hh}"
        assert torch.allclose(lse[bb, hh, rows].double(), rl, rtol=1e-3, atol=1e-3)
