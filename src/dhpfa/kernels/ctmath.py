"""Constant-time building blocks shared by the attention kernels.

Everything here computes on secret values with straight-line arithmetic: masking is a select, never a
branch; the exponential and logarithm are the approximate hardware paths (MUFU.EX2, a branch-free
polynomial for log2); division is Triton's `div.full.f32` (MUFU.RCP with predicated range scaling, no
slow path). The auditor checks the SASS for each shipped kernel, so these claims are verified, not hoped.
"""
import triton
import triton.language as tl

LOG2E = 1.4426950408889634
LN2 = 0.6931471805599453


@triton.jit
def online_softmax_step(qk, qk_scale, m_i, l_i, acc, MASKED: tl.constexpr):
    """One step of the online softmax in the log2 domain.

    `qk` holds raw scores q.k (-inf where masked); `qk_scale` = softmax_scale * log2(e) > 0, so that
    max(qk) * qk_scale = max(qk * qk_scale) and each score costs one FFMA (qk * qk_scale - m).
    Returns (p, m_new, l_new, acc_scaled); the caller adds p @ V to acc_scaled.
    Rows that have seen no visible key keep m = -inf; subtracting a 0 in their place (a select) keeps
    every exp2 argument -inf instead of NaN, so such rows end with l = 0 and acc = 0.
    """
    m_new = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
    if MASKED:
        m_sub = tl.where(m_new == float("-inf"), 0.0, m_new)
    else:
        m_sub = m_new
    p = tl.math.exp2(qk * qk_scale - m_sub[:, None])
    alpha = tl.math.exp2(m_i - m_sub)
    l_new = l_i * alpha + tl.sum(p, 1)
    acc = acc * alpha[:, None]
    return p, m_new, l_new, acc


@triton.jit
def finalize_rows(acc, m_i, l_i):
    """Normalise the accumulator and form the natural-log LSE; empty rows give 0 and -inf, never NaN."""
    empty = l_i == 0.0
    l_safe = tl.where(empty, 1.0, l_i)
    inv_l = 1.0 / l_safe  # one reciprocal per row, then multiplies
    out = acc * inv_l[:, None]
    lse = tl.where(empty, float("-inf"), (m_i + tl.math.log2(l_safe)) * 0.6931471805599453)
    return out, lse


@triton.jit
def tanh_mufu(x):
    """tanh(x) by tanh.approx.f32 (one MUFU.TANH, as the Hopper builds' sm90_fwd._tanh_mufu and flash-attn's soft-cap):
    constant latency, no branch; relative error about 2^-11. Not in Triton's CPU interpreter (inline PTX): tanh_ct
    there."""
    return tl.inline_asm_elementwise("tanh.approx.f32 $0, $1;", "=f,f", [x], dtype=tl.float32, is_pure=True, pack=1)


@triton.jit
def tanh_ct(x):
    """tanh(x) = 1 - 2 / (2^(2x log2 e) + 1): one MUFU.EX2 and one division (`div.full.f32`: MUFU.RCP, no slow
    path), no branch; +-1 at the ends (2^x overflows to inf or underflows to 0), absolute error ~1e-7."""
    e = tl.math.exp2(x * 2.8853900817779268)
    return 1.0 - 2.0 / (e + 1.0)
