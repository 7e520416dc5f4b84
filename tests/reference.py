"""Float64 reference attention shared by the tests (layout (B, S, H, D), like flash_attn_func)."""
import torch


def attention_ref(q, k, v, scale, causal_offset=None):
    """Exact attention in float64. causal_offset: query i sees key j when j <= i + offset (None: no mask).

    Rows that see no key give output 0 and lse -inf, the convention dhpfa documents.
    """
    q, k, v = (t.detach().to("cpu", torch.float64) for t in (q, k, v))
    b, sq, h, d = q.shape
    sk, hk = k.shape[1], k.shape[2]
    k = k.repeat_interleave(h // hk, dim=2)
    v = v.repeat_interleave(h // hk, dim=2)
    s = torch.einsum("bqhd,bkhd->bhqk", q, k) * scale
    if causal_offset is not None:
        i = torch.arange(sq)[:, None]
        j = torch.arange(sk)[None, :]
        s = s.masked_fill(j > i + causal_offset, float("-inf"))
    lse = torch.logsumexp(s, dim=-1)
    p = torch.exp(s - lse[..., None]).nan_to_num(0.0)
    out = torch.einsum("bhqk,bkhd->bqhd", p, v)
    return out, lse


def rel_err(x, ref):
    x = x.detach().to("cpu", torch.float64)
    return float((x - ref).norm() / ref.norm().clamp_min(1e-300))
