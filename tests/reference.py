"""Reference helpers for the tests: the float64 reference lives in the package (dhpfa.reference)."""
import torch

from dhpfa.reference import attention_ref, attention_ref_rows  # noqa: F401  (re-exported for the tests)


def rel_err(x, ref):
    x = x.detach().to("cpu", torch.float64)
    return float((x - ref).norm() / ref.norm().clamp_min(1e-300))
