"""Float64 reference attention, the ground truth for the tests, the demo and the device checks.

Layout (B, S, H, D), as flash_attn_func. causal_offset: query i sees key j when j <= i + offset (None: no
mask). Rows that see no key give output 0 and lse -inf, the convention dhpfa documents.
"""
import torch


def attention_ref(q, k, v, scale, causal_offset=None, window=None, softcap=0.0):
    """(out (B, Sq, H, D), lse (B, H, Sq)) in float64 on the CPU. window: flash-attn's (left, right) local window,
    aligned bottom-right (query i sees key j when i + Sk - Sq - left <= j <= i + Sk - Sq + right; -1: unbounded);
    softcap > 0: scores softcap * tanh(score / softcap), as flash-attn's."""
    q, k, v = (t.detach().to("cpu", torch.float64) for t in (q, k, v))
    b, sq, h, d = q.shape
    sk, hk = k.shape[1], k.shape[2]
    k = k.repeat_interleave(h // hk, dim=2)
    v = v.repeat_interleave(h // hk, dim=2)
    s = torch.einsum("bqhd,bkhd->bhqk", q, k) * scale
    if softcap > 0:
        s = softcap * torch.tanh(s / softcap)
    i = torch.arange(sq)[:, None]
    j = torch.arange(sk)[None, :]
    if causal_offset is not None:
        s = s.masked_fill(j > i + causal_offset, float("-inf"))
    if window is not None:
        left, right = window
        if left >= 0:
            s = s.masked_fill(j < i + sk - sq - left, float("-inf"))
        if right >= 0:
            s = s.masked_fill(j > i + sk - sq + right, float("-inf"))
    lse = torch.logsumexp(s, dim=-1)
    p = torch.exp(s - lse[..., None]).nan_to_num(0.0)
    out = torch.einsum("bhqk,bkhd->bqhd", p, v)
    return out, lse


def attention_ref_rows(q, k, v, scale, causal_offset, b, h, rows):
    """(out (len(rows), D), lse (len(rows),)) for query rows `rows` of batch b, head h, in float64 on the
    tensors' device: cheap enough for long sequences on the GPU."""
    hk = h // (q.shape[2] // k.shape[2])
    s = (q[b, rows, h].double() @ k[b, :, hk].double().T) * scale
    if causal_offset is not None:
        j = torch.arange(k.shape[1], device=q.device)
        s = s.masked_fill(j[None, :] > rows[:, None] + causal_offset, float("-inf"))
    lse = torch.logsumexp(s, -1)
    return torch.exp(s - lse[:, None]).nan_to_num(0.0) @ v[b, :, hk].double(), lse
