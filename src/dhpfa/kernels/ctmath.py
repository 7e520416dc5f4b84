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


# 2^f on [-0.5, 0.5]: a degree-3 polynomial fitted for relative error (max 7.5e-5; P is rounded to bf16,
# 2^-9, or fp16, 2^-11, before the PV GEMM).
EXP2_C3, EXP2_C2, EXP2_C1, EXP2_C0 = (tl.constexpr(c) for c in (0.05517166, 0.24261116, 0.69326099, 0.99992807))
ROUND_MAGIC = tl.constexpr(12582912.0)  # 1.5 * 2^23: x + it holds round(x) in its low mantissa bits (|x| < 2^22)


@triton.jit
def exp2_fma(x):
    """2^x for x <= 0 (or -inf) on the FMA and integer pipes instead of MUFU.EX2, as FlashAttention-4
    does to relieve the special-function unit: x = j + f with j = round(x), f in [-0.5, 0.5]; 2^f by a
    polynomial; 2^j added to the exponent field. Straight-line, fixed latency: x < -125 gives 0 by a
    select (as ex2.approx.ftz flushes), so masked scores (-inf) give exactly 0."""
    xc = tl.maximum(x, -125.0)
    t = xc + ROUND_MAGIC
    f = xc - (t - ROUND_MAGIC)
    p = ((EXP2_C3 * f + EXP2_C2) * f + EXP2_C1) * f + EXP2_C0
    j = t.to(tl.int32, bitcast=True) - 0x4B400000  # round(xc), from t's mantissa
    y = (p.to(tl.int32, bitcast=True) + (j << 23)).to(tl.float32, bitcast=True)
    return tl.where(x < -125.0, 0.0, y)


@triton.jit
def exp2_mixed(x, EXP_EMU: tl.constexpr):
    """2^x of a [M, N] score block: EXP_EMU, the even columns on MUFU.EX2 and the odd ones by exp2_fma
    (a thread of a wgmma accumulator holds column pairs, so the split and join move no data); else all
    on MUFU.EX2."""
    if EXP_EMU:
        BM: tl.constexpr = x.shape[0]
        BN: tl.constexpr = x.shape[1]
        even, odd = tl.split(tl.reshape(x, (BM, BN // 2, 2)))
        return tl.reshape(tl.join(tl.math.exp2(even), exp2_fma(odd)), (BM, BN))
    else:
        return tl.math.exp2(x)


@triton.jit
def online_softmax_step(qk, qk_scale, m_i, l_i, acc, MASKED: tl.constexpr, EXP_EMU: tl.constexpr = False):
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
    p = exp2_mixed(qk * qk_scale - m_sub[:, None], EXP_EMU)
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
